import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { BallotPseudonymRow, NewBallotPseudonym } from '../../server/db/tables/ballot-pseudonyms.table.ts';

/** The personal links of a survey that have sent a ballot, by their secret. */
export async function votedSecrets(db: Kysely<Database>, projectId: string): Promise<Set<string | null>> {
  const rows = await db.selectFrom('ballots').select('personal_secret').where('project_id', '=', projectId).where('link', '=', 'personal').execute();
  return new Set(rows.map((row) => row.personal_secret));
}

/** True when `purge-personal` has been through some ballot of the survey: only then has it pseudonym rows. */
export async function anyPseudonyms(db: Kysely<Database>, projectId: string): Promise<boolean> {
  // From the pseudonym rows (none, or a purged survey's), each checked for its survey: a join
  // would walk the survey's ballots instead, half a second at a million.
  const rows = await db
    .selectFrom('ballot_pseudonyms')
    .select('ballot_pseudonyms.ballot_id')
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('ballots').select('ballots.id').whereRef('ballots.id', '=', 'ballot_pseudonyms.ballot_id').where('ballots.project_id', '=', projectId)),
    )
    .limit(1)
    .execute();
  return rows.length > 0;
}

/** The pseudonym rows of some ballots, by ballot id: those `purge-personal` has been through. */
export async function pseudonymsOf(db: Kysely<Database>, ballotIds: readonly string[]): Promise<Map<string, BallotPseudonymRow>> {
  if (!ballotIds.length) return new Map();
  const rows = await db.selectFrom('ballot_pseudonyms').selectAll().where('ballot_id', 'in', ballotIds).execute();
  return new Map(rows.map((row) => [row.ballot_id, row]));
}

/** Stores what the tally keeps of purged ballots, a row each. */
export async function insertPseudonyms(db: Kysely<Database>, rows: readonly NewBallotPseudonym[]): Promise<void> {
  await db.insertInto('ballot_pseudonyms').values(rows).execute();
}

/** How many answers some ballots hold to some fields. */
export async function countAnswers(db: Kysely<Database>, ballotIds: readonly string[], fields: readonly string[]): Promise<number> {
  const row = await db
    .selectFrom('answers')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('ballot_id', 'in', ballotIds)
    .where('field', 'in', fields)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Deletes some ballots' answers to some fields; answers how many went. */
export async function deleteAnswers(db: Kysely<Database>, ballotIds: readonly string[], fields: readonly string[]): Promise<number> {
  const result = await db.deleteFrom('answers').where('ballot_id', 'in', ballotIds).where('field', 'in', fields).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The stored names of some ballots' uploaded files. */
export async function uploadIds(db: Kysely<Database>, ballotIds: readonly string[]): Promise<string[]> {
  return (await db.selectFrom('uploads').select('id').where('ballot_id', 'in', ballotIds).execute()).map((row) => row.id);
}

/** Deletes the rows of some ballots' uploads (the files are the caller's to remove, once the change is committed). */
export async function deleteUploads(db: Kysely<Database>, ballotIds: readonly string[]): Promise<void> {
  await db.deleteFrom('uploads').where('ballot_id', 'in', ballotIds).execute();
}

/** Replaces a refused ballot's form fields with those a purge leaves (JSON of `[name, value]`), and forgets its files' names. */
export async function setRefusedFields(db: Kysely<Database>, id: string, fields: string): Promise<void> {
  await db.updateTable('refused_ballots').set({ fields, files: '[]' }).where('id', '=', id).execute();
}
