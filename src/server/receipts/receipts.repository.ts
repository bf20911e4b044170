import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { BallotRow } from '../db/ballots.table.ts';

/** The ballot of a survey that carries this receipt code (stored form), if any. */
export async function ballotByReceipt(db: Kysely<Database>, projectId: string, code: string): Promise<BallotRow | undefined> {
  return db.selectFrom('ballots').selectAll().where('project_id', '=', projectId).where('receipt', '=', code).executeTakeFirst();
}
