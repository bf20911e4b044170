import type { Insertable, Selectable } from 'kysely';

/** `answers`: a ballot's answers to its layout fields, one row per value (a checkbox has one per ticked option). */
export interface AnswersTable {
  ballot_id: string;
  /** The layout field's name; a checkbox's 'Other' text is under `{name}[other-answer]`. */
  field: string;
  position: number;
  value: string;
}

/** A stored answer. */
export type AnswerRow = Selectable<AnswersTable>;
/** An answer to store. */
export type NewAnswer = Insertable<AnswersTable>;
