import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { NewWriteInDecision, WriteInDecisionRow } from '../../server/db/tables/write-in-decisions.table.ts';

/** Records one decision; earlier decisions on the same write-in stay as its audit trail. */
export async function recordWriteInDecision(db: Kysely<Database>, decision: NewWriteInDecision): Promise<void> {
  await db.insertInto('write_in_decisions').values(decision).execute();
}

/** Every decision of a survey, oldest first: the audit trail. */
export async function writeInDecisionLog(db: Kysely<Database>, projectId: string): Promise<WriteInDecisionRow[]> {
  return db.selectFrom('write_in_decisions').selectAll().where('project_id', '=', projectId).orderBy('decided_at').orderBy('id').execute();
}

/** The key a decision is filed under: the sub-category and the normalised name. */
export function decisionKey(group: string, subcategory: string, nameKey: string): string {
  return `${group}\u0000${subcategory}\u0000${nameKey}`;
}

/** The decisions in force: the latest per write-in, by `decisionKey`; a write-in whose latest is an `undo` has none, and waits again. */
export async function writeInDecisionsInForce(db: Kysely<Database>, projectId: string): Promise<Map<string, WriteInDecisionRow>> {
  const latest = new Map<string, WriteInDecisionRow>();
  for (const row of await writeInDecisionLog(db, projectId)) {
    const key = decisionKey(row.category_group, row.subcategory, row.name_key);
    if (row.action === 'undo') latest.delete(key);
    else latest.set(key, row);
  }
  return latest;
}

/** A survey's write-ins counted by sub-category and spelling, as the API counts them (demo ballots left out); those of one folded name when `nameKey` is given. */
export async function writeInSpellings(
  db: Kysely<Database>,
  projectId: string,
  nameKey?: string,
): Promise<Array<{ category_group: string; subcategory: string; name_key: string; name: string; n: number }>> {
  let query = db
    .selectFrom('write_in_spellings')
    .select(['category_group', 'subcategory', 'name_key', 'name', 'writes as n'])
    .where('project_id', '=', projectId)
    .where('writes', '>', 0);
  if (nameKey !== undefined) query = query.where('name_key', '=', nameKey);
  return query.execute();
}
