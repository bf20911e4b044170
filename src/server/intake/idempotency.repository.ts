import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { IdempotencyKeyRow } from '../db/tables/idempotency-keys.table.ts';

/** The stored row for a key, if any. */
async function findIdempotencyKey(db: Kysely<Database>, key: string): Promise<IdempotencyKeyRow | undefined> {
  return db.selectFrom('idempotency_keys').selectAll().where('key', '=', key).executeTakeFirst();
}

/**
 * Marks a key as in flight. Returns 'claimed' when this request may go on, else the row that
 * holds the key: finished, or in flight elsewhere. A claim whose request crashed is taken over
 * once its `locked_until` has passed.
 */
export async function claimIdempotencyKey(
  db: Kysely<Database>,
  claim: { key: string; fingerprint: string; now: Date; lockMs: number },
): Promise<'claimed' | IdempotencyKeyRow> {
  const now = claim.now.toISOString();
  const lockedUntil = new Date(claim.now.getTime() + claim.lockMs).toISOString();
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({
      key: claim.key,
      fingerprint: claim.fingerprint,
      state: 'pending',
      locked_until: lockedUntil,
      ballot_id: null,
      response_status: null,
      response_body: null,
      created_at: now,
    })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return 'claimed';
  const taken = await db
    .updateTable('idempotency_keys')
    .set({ fingerprint: claim.fingerprint, locked_until: lockedUntil })
    .where('key', '=', claim.key)
    .where('state', '=', 'pending')
    .where('locked_until', '<=', now)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) === 1) return 'claimed';
  const row = await findIdempotencyKey(db, claim.key);
  // Released between our insert and this read: the caller may simply try again.
  return row ?? claimIdempotencyKey(db, claim);
}

/** Records a key's answer; called inside the ballot's transaction, so the two are stored together or not at all. */
export async function completeIdempotencyKey(db: Kysely<Database>, key: string, answer: { ballotId: string; status: number; body: string }): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ state: 'done', ballot_id: answer.ballotId, response_status: answer.status, response_body: answer.body })
    .where('key', '=', key)
    .execute();
}

/** Lets a key go after its request failed, so that a retry may run. */
export async function releaseIdempotencyKey(db: Kysely<Database>, key: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('key', '=', key).where('state', '=', 'pending').execute();
}
