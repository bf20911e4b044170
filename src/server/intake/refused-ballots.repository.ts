import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { NewRefusedBallot, RefusedBallotRow } from '../db/tables/refused-ballots.table.ts';

/** Keeps a refused ballot; the same ballot sent again (same fingerprint) is kept once. */
export async function keepRefusedBallot(db: Kysely<Database>, row: NewRefusedBallot): Promise<void> {
  await db
    .insertInto('refused_ballots')
    .values(row)
    .onConflict((conflict) => conflict.columns(['project_id', 'fingerprint']).doNothing())
    .execute();
}

/** A survey's refused ballots, in the order received. */
export async function refusedBallots(db: Kysely<Database>, projectId: string): Promise<RefusedBallotRow[]> {
  return db.selectFrom('refused_ballots').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
}

/** One refused ballot of a survey, or undefined. */
export async function findRefusedBallot(db: Kysely<Database>, projectId: string, id: string): Promise<RefusedBallotRow | undefined> {
  return db.selectFrom('refused_ballots').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

/**
 * Marks a refused ballot admitted, with who, when, why and the ballot it became, unless it was
 * admitted already; true when this call marked it (so two operators cannot admit it twice).
 */
export async function markAdmitted(db: Kysely<Database>, id: string, admission: { at: Date; by: string; why: string; ballotId: string }): Promise<boolean> {
  const result = await db
    .updateTable('refused_ballots')
    .set({ admitted_at: admission.at.toISOString(), admitted_by: admission.by, admit_reason: admission.why, ballot_id: admission.ballotId })
    .where('id', '=', id)
    .where('admitted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * One page of a survey's refused ballots, newest first, by keyset on (project_id, id) (the index
 * `refused_ballots_page` answers it in one search, however many there are): the `limit` before
 * `before` (the newest when absent), or, with `after`, the `limit` just after it. One more row
 * than the page is read, so that the caller knows whether another page follows.
 */
export async function refusedPage(
  db: Kysely<Database>,
  projectId: string,
  from: { before?: string; after?: string },
  limit: number,
): Promise<{ rows: RefusedBallotRow[]; more: boolean }> {
  const query = db.selectFrom('refused_ballots').selectAll().where('project_id', '=', projectId);
  if (from.after !== undefined) {
    const rows = await query
      .where('id', '>', from.after)
      .orderBy('id', 'asc')
      .limit(limit + 1)
      .execute();
    return { rows: rows.slice(0, limit).reverse(), more: rows.length > limit };
  }
  const rows = await (from.before !== undefined ? query.where('id', '<', from.before) : query)
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  return { rows: rows.slice(0, limit), more: rows.length > limit };
}

/** How many ballots a survey refused, and how many of them were admitted since: each counted in an index alone. */
export async function refusedCounts(db: Kysely<Database>, projectId: string): Promise<{ refused: number; admitted: number }> {
  const count = (admittedOnly: boolean) => {
    const query = db
      .selectFrom('refused_ballots')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('project_id', '=', projectId);
    return (admittedOnly ? query.where('admitted_at', 'is not', null) : query).executeTakeFirstOrThrow();
  };
  const [refused, admitted] = await Promise.all([count(false), count(true)]);
  return { refused: Number(refused.n), admitted: Number(admitted.n) };
}
