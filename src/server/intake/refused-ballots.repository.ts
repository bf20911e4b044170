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

/** Undoes an admission whose ballot could not be stored. */
export async function unmarkAdmitted(db: Kysely<Database>, id: string): Promise<void> {
  await db.updateTable('refused_ballots').set({ admitted_at: null, admitted_by: null, admit_reason: null, ballot_id: null }).where('id', '=', id).execute();
}
