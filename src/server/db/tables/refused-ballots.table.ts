import type { Insertable, Selectable } from 'kysely';

/**
 * `refused_ballots`: every well-formed ballot the API refused for a rule (invalid link,
 * expired survey, a field that breaks its rule, a personal link used already…), kept whole so
 * that none is lost; an operator may admit one into the ballots (`npm run results -- admit`).
 * Uploaded files are not kept: `files` records each one's field, name, type and size.
 */
export interface RefusedBallotsTable {
  /** A UUIDv7: refusals sort by it in the order received. */
  id: string;
  /** The project_id the ballot named (which may name no survey). */
  project_id: string;
  /** ISO 8601 UTC. */
  received_at: string;
  /** The HTTP status the voter's browser was answered. */
  status: number;
  /** The answer's error code, e.g. `invalid_ballot`, `expired`, `already_submitted`. */
  reason: string;
  /** JSON: the answer's problems, `[{ path, message }]`. */
  problems: string;
  /** The secret the ballot was sent with; NULL on the public link. */
  secret: string | null;
  /** JSON: every text part of the ballot as `[name, value]`, in the order sent. */
  fields: string;
  /** JSON: each file part as `{ field, name, type, size }`; the bytes are not kept. */
  files: string;
  /** A digest of the query and parts, so that a ballot sent again is kept once. */
  fingerprint: string;
  /** When, by whom and why an operator admitted it; NULL until then. */
  admitted_at: string | null;
  admitted_by: string | null;
  admit_reason: string | null;
  /** The ballot it became when admitted. */
  ballot_id: string | null;
}

/** A stored refused ballot. */
export type RefusedBallotRow = Selectable<RefusedBallotsTable>;
/** A refused ballot to store. */
export type NewRefusedBallot = Insertable<RefusedBallotsTable>;
