import { atom, map } from 'nanostores';

/** One answer: text for most fields, a list for checkboxes. */
export type Answer = string | string[];

/** The voter's answers to the layout's fields, by field name. */
export const $answers = map<Record<string, Answer>>({});

/** The files the voter chose, by field name. */
export const $files = map<Record<string, File | undefined>>({});

/** True once the voter has ticked 'I Affirm'. */
export const $affirmed = atom(false);

/** Records one answer. */
export function setAnswer(name: string, value: Answer): void {
  $answers.setKey(name, value);
}

/** Records the file chosen for a file field, or none. */
export function setFile(name: string, file: File | undefined): void {
  $files.setKey(name, file);
}

/** Fills answers from a personal link's prepopulated values, keeping what the voter already typed. */
export function prefillAnswers(values: Record<string, Answer>): void {
  for (const [name, value] of Object.entries(values)) {
    if ($answers.get()[name] === undefined) $answers.setKey(name, value);
  }
}

/** Ticks or unticks the affirmation. */
export function setAffirmed(value: boolean): void {
  $affirmed.set(value);
}
