import { map } from 'nanostores';

/** One answer: text for most fields, a list for checkboxes. */
export type Answer = string | string[];

/** The voter's answers to the layout's fields, by field name. */
export const $answers = map<Record<string, Answer>>({});

/** Records one answer. */
export function setAnswer(name: string, value: Answer): void {
  $answers.setKey(name, value);
}

/** Fills answers from a personal link's prepopulated values, keeping what the voter already typed. */
export function prefillAnswers(values: Record<string, Answer>): void {
  for (const [name, value] of Object.entries(values)) {
    if ($answers.get()[name] === undefined) $answers.setKey(name, value);
  }
}
