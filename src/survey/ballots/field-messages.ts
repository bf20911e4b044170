import type { FieldDef } from '../config/field.struct.ts';
import { describeTypes, formatBytes } from './file-rules.ts';
import { RESERVATION_WORDS } from './reservation-words.ts';
import { fieldRow, isReservationType, type FieldValue } from '../config/fields.ts';

/**
 * The words a voter reads when an answer breaks a rule: each names the field by its label
 * and states the limit it enforces (GOV.UK's error-message guidance). A field's
 * `validation.message` replaces every one of them for that field. The browser shows them
 * under the field and in the error summary; the API returns the same words in its 400 body.
 */

type MessageField = Pick<FieldDef, 'name' | 'label' | 'type' | 'validation'>;

/**
 * A field's name as the voter sees it: its label without a trailing "(optional)", else the
 * title its section shows (reservations), else its name in words.
 */
export function fieldLabel(field: Pick<FieldDef, 'name' | 'label'> & { type?: FieldDef['type'] }): string {
  const label = field.label?.replace(/\s*\((optional|required)\)\s*$/i, '').trim();
  if (label) return label;
  if (field.type && isReservationType(field.type)) return RESERVATION_WORDS[field.type].title;
  const words = field.name.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The field as the subject of a sentence: a question label is quoted ("The answer to “Are you board certified?”"). */
function subject(field: MessageField): string {
  const label = fieldLabel(field);
  return /[?:]$/.test(label) ? `The answer to “${label}”` : label;
}

/** A count as people read it: 2,000. */
const count = (n: number) => n.toLocaleString('en-US');

/** A number and its word, the word plural unless the number is one: "1 write-in", "1,000 votes". */
export const plural = (n: number, word: string) => `${count(n)} ${word}${n === 1 ? '' : 's'}`;

/** A list read aloud: "PDF, PNG or JPEG". */
function orList(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** What a required field asks the voter to do, where its value says more than "is required". */
const HOW_TO_ANSWER: Partial<Record<FieldValue, string>> = { choices: ': tick at least one option', file: ': choose a file' };

/** The message of one rule a field's answer breaks; the field's `validation.message` wins when set. */
export const fieldMessages = {
  required: (field: MessageField) => field.validation?.message ?? `${subject(field)} is required${HOW_TO_ANSWER[fieldRow(field).value ?? 'text'] ?? ''}.`,
  email: (field: MessageField) => field.validation?.message ?? `${subject(field)} is not valid. Enter an address like name@example.org.`,
  maxLength: (field: MessageField, max: number) => field.validation?.message ?? `${subject(field)} must be ${count(max)} characters or fewer.`,
  minLength: (field: MessageField, min: number) => field.validation?.message ?? `${subject(field)} must be at least ${count(min)} characters.`,
  pattern: (field: MessageField) => field.validation?.message ?? `${subject(field)} is not in the expected format.`,
  npi: (field: MessageField) => field.validation?.message ?? `${subject(field)} is not a valid National Provider Identifier (NPI): enter its 10 digits.`,
  option: (field: MessageField) => field.validation?.message ?? `${subject(field)} must be one of the options shown.`,
  otherText: (field: MessageField) => field.validation?.message ?? `${subject(field)}: you ticked “Other”, so say what it is.`,
  fileSize: (field: MessageField, max: number) => field.validation?.message ?? `${subject(field)} must be ${formatBytes(max)} or smaller.`,
  fileType: (field: MessageField, types: readonly string[]) =>
    field.validation?.message ?? `${subject(field)} must be a ${orList(describeTypes(types).split(', '))} file.`,
  tileUnknown: (field: MessageField) => field.validation?.message ?? `${subject(field)}: choose one of the tiles shown.`,
  tileTaken: (field: MessageField) => `${subject(field)}: this tile is already taken; choose another.`,
  tileRequired: (field: MessageField) => field.validation?.message ?? `${subject(field)} is required: choose a tile or write your own.`,
  customTooLong: (field: MessageField, max: number) => `${subject(field)}: your own text must be ${count(max)} characters or fewer.`,
} as const;

/** The affirmation's message: it names the checkbox by its label. */
export const AFFIRM_MESSAGE = 'Tick “I Affirm” to confirm the statements above.';

/** A write-in name longer than the limit. */
export const writeInNameTooLong = (max: number) => `A write-in name must be ${count(max)} characters or fewer.`;
