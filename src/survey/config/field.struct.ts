import { array, boolean, enums, lazy, nonempty, number, object, optional, record, refine, string, type Describe, type Infer } from 'superstruct';
import { autofillTypes, FIELD_TABLE, fieldRow, hasOptions, type FieldBasics, type FieldTypeName } from './fields.ts';
import { isAutofillValue } from './autofill.ts';
import { isFieldName } from '../ballots/ballot-keys.ts';

/**
 * Every kind of input a survey layout can place (docs/spec.md, "Fields"): the names of the field table's rows.
 * Exported only so its unit test can check it directly; the product reaches it through the field struct.
 * @internal
 */
export const FIELD_TYPES = Object.keys(FIELD_TABLE) as FieldTypeName[];

/** A field name: letters, digits, dashes and underscores, as used in form data keys. */
export const FieldName = refine(string(), 'FieldName', (value) =>
  isFieldName(value) ? true : `expected a name of letters, digits, dashes and underscores that starts with a letter, got "${value}"`,
);

/** An HTML autofill token: what the field holds, for the browser to fill in (autofill.ts). */
const AutofillToken = refine(string(), 'AutofillToken', (value) =>
  isAutofillValue(value)
    ? true
    : `"${value}" is not an HTML autocomplete token: use one such as given-name, family-name, email, tel, organization or off, in lower case (https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#autofill)`,
);

/** The rules a field's answer must follow; `message` replaces the default error text. */
const Validation = object({
  required: optional(boolean()),
  email: optional(boolean()),
  minLength: optional(number()),
  maxLength: optional(number()),
  /** A regular expression the whole answer must match (write `^…$`); `message` says what is expected. */
  pattern: optional(string()),
  message: optional(string()),
  /** The answer must be a US National Provider Identifier: 10 digits, the last a check digit. */
  npi: optional(boolean()),
  /** For file fields: the largest accepted file, in bytes. */
  maxFileSize: optional(number()),
  /** For file fields: accepted MIME types, e.g. `application/pdf`. */
  accept: optional(array(string())),
});

/** The shape of one field definition, written out so that `nested` can hold fields again; its name, type and options are the field table's FieldBasics. */
export interface FieldShape extends FieldBasics {
  label?: string;
  placeholder?: string;
  icon?: string;
  class?: string;
  disabled?: boolean;
  validation?: Infer<typeof Validation>;
  html?: string;
  prepopulated?: boolean;
  /** Personal data: `purge-personal` removes the answer once the vote is over. */
  personal?: boolean;
  labelAbove?: boolean;
  fields?: FieldShape[];
  /** What the field holds, as an HTML autocomplete token (`given-name`, `tel`…), so that a browser can fill it in. */
  autocomplete?: string;
  /** The words each option shows, by option, when they differ from it; the option itself is what the ballot sends. */
  option_labels?: Record<string, string>;
}

const FieldObject: Describe<FieldShape> = object({
  name: FieldName,
  type: enums(FIELD_TYPES),
  label: optional(string()),
  placeholder: optional(string()),
  icon: optional(string()),
  class: optional(string()),
  disabled: optional(boolean()),
  validation: optional(Validation),
  options: optional(array(nonempty(string()))),
  html: optional(string()),
  prepopulated: optional(boolean()),
  personal: optional(boolean()),
  labelAbove: optional(boolean()),
  fields: optional(array(lazy(() => Field))),
  option_labels: optional(record(string(), string())),
  autocomplete: optional(AutofillToken),
});

/**
 * One field of a survey layout (docs/spec.md, "Fields").
 * Exported only so its unit tests can check it directly; the product reaches it through the survey's layout struct.
 * @internal
 */
export const Field: Describe<FieldShape> = refine(FieldObject, 'Field', (field) => {
  if (field.type === 'nested' && !field.fields?.length) {
    return 'a nested field needs `fields`, the list of its subfields';
  }
  if (field.type !== 'nested' && field.fields) {
    return `only a nested field may have \`fields\` (this one is of type ${field.type})`;
  }
  if (hasOptions(field.type) && !field.options?.length) {
    return `a ${field.type} field needs \`options\`, a list of choices`;
  }
  if (field.type === 'html' && field.html === undefined) {
    return 'an html field needs `html`, the content to show';
  }
  if (field.autocomplete !== undefined && !fieldRow(field).autofill) {
    return `only a field of type ${autofillTypes().join(', ')} may have \`autocomplete\` (this one is of type ${field.type})`;
  }
  if (field.validation?.pattern !== undefined) {
    try {
      new RegExp(field.validation.pattern);
    } catch (error) {
      return `validation.pattern is not a valid regular expression: ${(error as Error).message}`;
    }
  }
  return true;
});

/** A field definition as the rest of the code sees it. */
export type FieldDef = FieldShape;

/** The layout: rows of fields, shown top to bottom, a row's fields side by side. */
export const Layout = array(array(Field));
