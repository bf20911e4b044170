import { define, refine, type Struct } from 'superstruct';
import type { FieldDef } from '../config/field.struct.ts';
import { isBallotFile, isBlank, type BallotFile } from './ballot-input.ts';
import { acceptedTypes, maxFileSize } from './file-rules.ts';
import { fieldMessages } from './field-messages.ts';
import { fieldRow } from '../config/fields.ts';

/** The longest text any ballot part may hold when its field sets no `maxLength`. */
export const MAX_TEXT_LENGTH = 5000;

/** The longest nominee id, write-in name or custom reservation text. */
export const MAX_SHORT_TEXT = 300;

/** What an email address looks like to every check of one: something, an @, a domain with a dot; no spaces. */
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Check<T> = (value: T) => true | string;

function checked<T>(base: Struct<T, null>, checks: Array<[string, Check<T>]>): Struct<T, null> {
  return checks.reduce((struct, [name, check]) => refine(struct, name, (value) => check(value)), base);
}

/** One text, or nothing. */
export const OptionalText = define<string | undefined>('string', (value) => value === undefined || typeof value === 'string');

/** One text or a list of texts (a checkbox's ticked options), or nothing. */
const OptionalTexts = define<string | string[] | undefined>(
  'texts',
  (value) => value === undefined || typeof value === 'string' || (Array.isArray(value) && value.every((item) => typeof item === 'string')),
);

/** One file, or nothing. */
const OptionalFile = define<BallotFile | undefined>('file', (value) => value === undefined || isBallotFile(value));

const listOf = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** A text no longer than `max`, with `message` when it is longer. */
export function shortText(max: number, message: string): Struct<string | undefined, null> {
  return checked(OptionalText, [['maxLength', (value) => (value ?? '').length <= max || message]]);
}

/** The struct for the answer to one layout field, by the value its row of the field table says it sends. */
export function answerStruct(field: FieldDef): Struct<unknown, null> {
  const rules = field.validation ?? {};
  const row = fieldRow(field);
  if (row.value === 'file') return fileStruct(field) as Struct<unknown, null>;
  if (row.value === 'choices') {
    const options = new Set(field.options ?? []);
    return checked(OptionalTexts, [
      ['required', (value) => !rules.required || !isBlank(listOf(value)) || fieldMessages.required(field)],
      ['options', (value) => listOf(value).every((item) => isBlank(item) || options.has(item)) || fieldMessages.option(field)],
    ]) as Struct<unknown, null>;
  }
  const max = rules.maxLength ?? MAX_TEXT_LENGTH;
  const checks: Array<[string, Check<string | undefined>]> = [
    ['required', (value) => !rules.required || !isBlank(value) || fieldMessages.required(field)],
    ['maxLength', (value) => (value ?? '').length <= max || fieldMessages.maxLength(field, max)],
  ];
  if (row.email || rules.email) checks.push(['email', (value) => isBlank(value) || EMAIL.test(value!.trim()) || fieldMessages.email(field)]);
  if (rules.minLength !== undefined)
    checks.push(['minLength', (value) => isBlank(value) || value!.trim().length >= rules.minLength! || fieldMessages.minLength(field, rules.minLength!)]);
  if (rules.pattern !== undefined) {
    const pattern = new RegExp(rules.pattern);
    checks.push(['pattern', (value) => isBlank(value) || pattern.test(value!) || fieldMessages.pattern(field)]);
  }
  if (rules.npi) checks.push(['npi', (value) => isBlank(value) || isNpi(value!) || fieldMessages.npi(field)]);
  if (row.value === 'choice' && field.options) {
    const options = new Set(field.options);
    checks.push(['options', (value) => isBlank(value) || options.has(value!) || fieldMessages.option(field)]);
  }
  return checked(OptionalText, checks) as Struct<unknown, null>;
}

/** The struct for a file field: required, no larger than its limit, of an accepted type (as declared by the sender). */
function fileStruct(field: FieldDef): Struct<BallotFile | undefined, null> {
  const required = Boolean(field.validation?.required);
  const max = maxFileSize(field);
  const accept = acceptedTypes(field);
  return checked(OptionalFile, [
    ['required', (file) => !required || !isBlank(file) || fieldMessages.required(field)],
    ['maxFileSize', (file) => isBlank(file) || file!.size <= max || fieldMessages.fileSize(field, max)],
    ['accept', (file) => isBlank(file) || accept.includes(file!.type) || fieldMessages.fileType(field, accept)],
  ]);
}

/**
 * True when `value` is a well-formed US National Provider Identifier: 10 digits whose last is
 * the Luhn check digit of the first nine behind the prefix 80840 (CMS, "NPI Check Digit").
 */
function isNpi(value: string): boolean {
  // Luhn over the 15 digits "80840" + NPI: the prefix adds 24, and every other NPI digit from the first is doubled.
  return /^\d{10}$/.test(value) && [...value].reduce((sum, c, i) => sum + (i % 2 ? +c : 2 * +c > 9 ? 2 * +c - 9 : 2 * +c), 24) % 10 === 0;
}
