import type { Insertable, Selectable } from 'kysely';

/**
 * `ballot_pseudonyms`: what the tally's identity rules need of a ballot whose personal answers
 * were purged: keyed hashes of the email and license (duplicates), the voter's nominee id, and
 * the nominees on the ballot the voter's name matched (self-votes).
 */
export interface BallotPseudonymsTable {
  ballot_id: string;
  /** HMAC-SHA-256 of the compared email, with the survey's pseudonym key; NULL when blank. */
  email_key: string | null;
  /** HMAC-SHA-256 of the compared license; NULL when blank. */
  license_key: string | null;
  /** The voter's id on the nominee list, from their personal link. */
  nominee_id: string | null;
  /** JSON object: each of the ballot's nominee ids that the voter's name (and license) matched at purge time → how it matched. */
  self_nominee_ids: string;
  purged_at: string;
}

/** A stored pseudonym row. */
export type BallotPseudonymRow = Selectable<BallotPseudonymsTable>;
/** A pseudonym row to store. */
export type NewBallotPseudonym = Insertable<BallotPseudonymsTable>;
