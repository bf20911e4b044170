import { customReservationName, otherAnswerName } from '../ballots/ballot-keys.ts';

/**
 * Every field type a survey layout can place (docs/spec.md, "Fields"), and what each one is: the one table
 * the config struct, the ballot struct, the page, the store and the API read instead of a
 * `type === …` test in each (the operator's export and purge are held to it by
 * tests/unit/field-table-export.test.ts).
 *
 * To add a field type:
 * 1. add its row here: its `kind`, and for an answer the `value` it sends (which names the
 *    struct it is checked with, in ballot-rules.ts) and any flag it needs;
 * 2. give it its component in the ballot's render table, FIELD_COMPONENTS in
 *    src/ballot/fields/FieldView.tsx (the page does not compile until the type has one).
 * Its config check, its form-data names, its ballot checks and error words, how the store
 * sends it, how the API stores it and its export columns follow from the row. (A third
 * kind of reservation is more than a type: it also needs its tiles in the survey config.)
 */

/**
 * What a field is: an `answer` the voter gives (stored in `answers`), a `file` (in `uploads`),
 * the `nomination` section (slots and write-ins), a `reservation` section (tiles or own text),
 * `static` content that sends nothing, or a `group` of fields (`nested`).
 */
export type FieldKind = 'answer' | 'file' | 'nomination' | 'reservation' | 'static' | 'group';

/**
 * What an answer's value is, which names its struct: `text`, one `choice` of its options,
 * any `choices` of its options (one entry per ticked option, and the text for 'Other'
 * under its other-answer name), a `file`, or a `tile` slug (or the voter's own text under
 * its custom name).
 */
export type FieldValue = 'text' | 'choice' | 'choices' | 'file' | 'tile';

/** One row of the field table. */
export interface FieldTypeRow {
  kind: FieldKind;
  /** What the field sends; none for the types that send nothing under their own name. */
  value?: FieldValue;
  /** The answer must be an email address (as `validation.email` asks of any text). */
  email?: true;
  /** One control a browser can fill in (an input, a select or a textarea): the field may carry an `autocomplete` token. */
  autofill?: true;
  /** Answered by its option's position (a range input): not moved, it answers its first option; a plain form post sends the position 1…n. */
  positional?: true;
}

/** The field table: each type a survey layout may use, in the order error messages list them. */
export const FIELD_TABLE = {
  nested: { kind: 'group' },
  text: { kind: 'answer', value: 'text', autofill: true },
  select: { kind: 'answer', value: 'choice', autofill: true },
  email: { kind: 'answer', value: 'text', email: true, autofill: true },
  nomination: { kind: 'nomination' },
  faces: { kind: 'reservation', value: 'tile' },
  asktheexpert: { kind: 'reservation', value: 'tile' },
  html: { kind: 'static' },
  slider: { kind: 'answer', value: 'choice', positional: true },
  textarea: { kind: 'answer', value: 'text', autofill: true },
  radio: { kind: 'answer', value: 'choice' },
  'fancy-radio': { kind: 'answer', value: 'choice' },
  checkbox: { kind: 'answer', value: 'choices' },
  file: { kind: 'file', value: 'file' },
} as const satisfies Record<string, FieldTypeRow>;

/** A field type's name. */
export type FieldTypeName = keyof typeof FIELD_TABLE;

/**
 * What the table's functions read of a field definition: its name, its type and its options.
 * The whole definition (field.struct.ts's FieldShape) extends it, so the struct imports the table and not the other way round.
 */
export interface FieldBasics {
  name: string;
  type: FieldTypeName;
  options?: string[];
}

/** The types of one kind, as a type: `TypesOfKind<'reservation'>` is `'faces' | 'asktheexpert'`. */
export type TypesOfKind<K extends FieldKind> = { [T in FieldTypeName]: (typeof FIELD_TABLE)[T]['kind'] extends K ? T : never }[FieldTypeName];

/** The row of a field's type. */
export function fieldRow(field: Pick<FieldBasics, 'type'>): FieldTypeRow {
  return FIELD_TABLE[field.type];
}

/** True when a field is of the given kind; narrows its type to the types of that kind. */
export function isKind<F extends FieldBasics, K extends FieldKind>(field: F, kind: K): field is F & { type: TypesOfKind<K> } {
  return FIELD_TABLE[field.type].kind === kind;
}

/** True for the types of a reservation section; narrows the type to a reservation kind. */
export function isReservationType(type: FieldTypeName): type is TypesOfKind<'reservation'> {
  return FIELD_TABLE[type].kind === 'reservation';
}

/** True for the types whose answer is one (or several) of their `options`, which they must list. */
export function hasOptions(type: FieldTypeName): boolean {
  const { value } = FIELD_TABLE[type] as FieldTypeRow;
  return value === 'choice' || value === 'choices';
}

/** True for a field whose ticked 'Other' option comes with the voter's text under its other-answer name. */
export function asksOtherText(field: FieldBasics): boolean {
  return fieldRow(field).value === 'choices' && Boolean(field.options?.includes('Other'));
}

/** The types whose field may carry an `autocomplete` token, for the configuration's error. */
export function autofillTypes(): FieldTypeName[] {
  return (Object.keys(FIELD_TABLE) as FieldTypeName[]).filter((type) => (FIELD_TABLE[type] as FieldTypeRow).autofill);
}

/**
 * The `autocomplete` token a field's control carries: the survey's own (`given-name`, `tel`…),
 * else `email` for an email field, else none (the form's own setting applies).
 */
export function autofillToken(field: FieldBasics & { autocomplete?: string }): string | undefined {
  const row = fieldRow(field);
  if (!row.autofill) return undefined;
  return field.autocomplete ?? (row.email ? 'email' : undefined);
}

/** A positional field's posted value as its answer: a position 1…n becomes the option it stands for; an option, or anything else, stays as sent. */
export function optionAtPosition(options: readonly string[], value: string): string {
  return /^\d+$/.test(value) && !options.includes(value) ? (options[Number(value) - 1] ?? value) : value;
}

/** The names a field's answers are stored and exported under: its own, and for a multiple choice the 'Other' text's. */
export function answerNames(field: FieldBasics): string[] {
  return fieldRow(field).value === 'choices' ? [field.name, otherAnswerName(field.name)] : [field.name];
}

/** The form-data names a field of the ballot may send: see ballot-keys.ts. */
export function formNames(field: FieldBasics): string[] {
  const { kind, value } = fieldRow(field);
  if (kind === 'static' || kind === 'group' || kind === 'nomination') return [];
  if (value === 'tile') return [field.name, customReservationName(field.name)];
  return asksOtherText(field) ? [field.name, otherAnswerName(field.name)] : [field.name];
}

/**
 * The columns a field fills in the CSV export, by kind: an answer's stored names; a
 * reservation's tile (or own text), its status and its outcome; a file's name and stored
 * name. The nominations section's columns are its slots and write-ins (see `ballotSlots`).
 */
export function exportColumns(field: FieldBasics): string[] {
  switch (fieldRow(field).kind) {
    case 'answer':
      return answerNames(field);
    case 'reservation':
      return [field.name, `${field.name} status`, `${field.name} outcome`];
    case 'file':
      return [`${field.name} file`, `${field.name} stored as`];
    default:
      return [];
  }
}
