import type { FieldDef } from '../config/field.struct.ts';
import { describeTypes, formatBytes } from './file-rules.ts';
import { reservationWords } from './reservation-words.ts';
import { fieldRow, isReservationType, type FieldValue } from '../config/fields.ts';
import { intlLocale, m } from '../../i18n/messages.ts';

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
  const label = field.label?.replace(/\s*\((optional|required|opcional|obligatorio)\)\s*$/i, '').trim();
  if (label) return label;
  if (field.type && isReservationType(field.type)) return reservationWords(field.type).title;
  const words = field.name.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The field as the subject of a sentence: a question label is quoted ("The answer to “Are you board certified?”"). */
function subject(field: MessageField): string {
  const label = fieldLabel(field);
  return /[?:]$/.test(label) ? m.field_answer_to({ label }) : label;
}

/** A count as people read it in the page's language: 2,000. */
const count = (n: number) => n.toLocaleString(intlLocale('en-US'));

/** A number and its word, the word plural unless the number is one: "1 write-in", "1,000 votes" (the operator's English). */
export const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** A list of choices read aloud in the page's language: "PDF, PNG or JPEG". */
function orList(items: readonly string[]): string {
  return new Intl.ListFormat(intlLocale('en-GB'), { type: 'disjunction' }).format(items);
}

/** What a required field asks the voter to do, where its value says more than "is required". */
const REQUIRED: Partial<Record<FieldValue, (inputs: { field: string }) => string>> = { choices: m.field_required_choices, file: m.field_required_file };

/** The message of one rule a field's answer breaks; the field's `validation.message` wins when set. */
export const fieldMessages = {
  required: (field: MessageField) => field.validation?.message ?? (REQUIRED[fieldRow(field).value ?? 'text'] ?? m.field_required)({ field: subject(field) }),
  email: (field: MessageField) => field.validation?.message ?? m.field_email({ field: subject(field) }),
  maxLength: (field: MessageField, max: number) => field.validation?.message ?? m.field_max_length({ field: subject(field), count: count(max) }),
  minLength: (field: MessageField, min: number) => field.validation?.message ?? m.field_min_length({ field: subject(field), count: count(min) }),
  pattern: (field: MessageField) => field.validation?.message ?? m.field_pattern({ field: subject(field) }),
  npi: (field: MessageField) => field.validation?.message ?? m.field_npi({ field: subject(field) }),
  option: (field: MessageField) => field.validation?.message ?? m.field_option({ field: subject(field) }),
  otherText: (field: MessageField) => field.validation?.message ?? m.field_other_text({ field: subject(field) }),
  fileSize: (field: MessageField, max: number) => field.validation?.message ?? m.field_file_size({ field: subject(field), size: formatBytes(max) }),
  fileType: (field: MessageField, types: readonly string[]) =>
    field.validation?.message ?? m.field_file_type({ field: subject(field), types: orList(describeTypes(types).split(', ')) }),
  tileUnknown: (field: MessageField) => field.validation?.message ?? m.tile_unknown({ field: subject(field) }),
  tileTaken: (field: MessageField) => m.tile_taken({ field: subject(field) }),
  tileRequired: (field: MessageField) => field.validation?.message ?? m.tile_required({ field: subject(field) }),
  customTooLong: (field: MessageField, max: number) => m.custom_too_long({ field: subject(field), count: count(max) }),
} as const;

/** The affirmation's message: it names the checkbox by its label. */
export const affirmMessage = (): string => m.affirm_message();

/** A write-in name longer than the limit. */
export const writeInNameTooLong = (max: number): string => m.write_in_name_too_long({ count: count(max) });

/** Too many write-ins. */
export const writeInLimitMessage = (limit: number): string => m.write_in_limit_reached({ count: limit });
