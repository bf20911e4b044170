import type { Insertable, Selectable } from 'kysely';

/**
 * `idempotency_keys`: one row per Idempotency-Key. `pending` while its request is in flight
 * (until `locked_until`); `done` with the answer, written in the ballot's own transaction.
 */
export interface IdempotencyKeysTable {
  key: string;
  /** SHA-256 of the request's query and parsed parts, so a retry with another body is told apart. */
  fingerprint: string;
  state: 'pending' | 'done';
  locked_until: string;
  ballot_id: string | null;
  response_status: number | null;
  response_body: string | null;
  created_at: string;
}

/** A stored key. */
export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>;
/** A key to store. */
export type NewIdempotencyKey = Insertable<IdempotencyKeysTable>;
