import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { BallotExclusionRow } from '../../server/db/tables/ballot-exclusions.table.ts';
import type { OperatorExclusion } from './rules.ts';

/** The ballots operators have excluded from a survey's count, by id, as the tally takes them. */
export async function ballotExclusions(db: Kysely<Database>, projectId: string): Promise<Map<string, OperatorExclusion>> {
  const rows = await db.selectFrom('ballot_exclusions').select(['ballot_id', 'reason', 'audit_id']).where('project_id', '=', projectId).execute();
  return new Map(rows.map((row) => [row.ballot_id, { reason: row.reason, auditId: row.audit_id }]));
}

/** The ballots operators have excluded from a survey's count, with who, when and why, oldest first. */
export async function exclusionList(db: Kysely<Database>, projectId: string): Promise<BallotExclusionRow[]> {
  return db.selectFrom('ballot_exclusions').selectAll().where('project_id', '=', projectId).orderBy('excluded_at').orderBy('ballot_id').execute();
}

/** The exclusion of one ballot of a survey, if an operator has excluded it. */
export async function exclusionOf(db: Kysely<Database>, projectId: string, ballotId: string): Promise<BallotExclusionRow | undefined> {
  return db.selectFrom('ballot_exclusions').selectAll().where('ballot_id', '=', ballotId).where('project_id', '=', projectId).executeTakeFirst();
}

/** Records a ballot's exclusion (its audit entry is the caller's, in the same transaction). */
export async function insertExclusion(db: Kysely<Database>, row: BallotExclusionRow): Promise<void> {
  await db.insertInto('ballot_exclusions').values(row).execute();
}

/** Removes a ballot's exclusion, so that the tally judges it again (its audit entry is the caller's, in the same transaction). */
export async function deleteExclusion(db: Kysely<Database>, ballotId: string): Promise<void> {
  await db.deleteFrom('ballot_exclusions').where('ballot_id', '=', ballotId).execute();
}

/** The newest restore (`include`) of a ballot in its survey's trail: who put it back, when and why; undefined when it never was. */
export async function lastRestoreOf(
  db: Kysely<Database>,
  projectId: string,
  ballotId: string,
): Promise<{ by: string; at: string; reason: string } | undefined> {
  const row = await db
    .selectFrom('audit_log')
    .select(['actor', 'at', 'reason'])
    .where('project_id', '=', projectId)
    .where('subject', '=', ballotId)
    .where('action', '=', 'include')
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { by: row.actor, at: row.at, reason: row.reason ?? '' } : undefined;
}
