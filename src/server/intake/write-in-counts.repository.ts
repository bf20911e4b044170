import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { NewWriteInDecision } from '../db/tables/write-in-decisions.table.ts';

// A survey's write-ins counted by group (folded name and sub-category) and by spelling as each
// ballot is stored, in its transaction, with the decision in force on each group written beside
// its count when an operator decides: the console's write-ins page reads them a page at a time.

/** A write-in as it is stored: its sub-category, its spelling and its folded name. */
interface CountedWriteIn {
  category_group: string;
  subcategory: string;
  name: string;
  name_key: string;
}

/** A group's short stable id, for addresses and anchors: the first 16 hex digits of the SHA-256 of its sub-category and folded name. */
export function writeInGroupId(group: string, subcategory: string, nameKey: string): string {
  return createHash('sha256').update(`${group}\u0000${subcategory}\u0000${nameKey}`).digest('hex').slice(0, 16);
}

/** Counts of the same key added up, in the keys' order (rows locked in one order everywhere never wait on one another in a circle). */
function tallied<T>(items: readonly T[], keyOf: (item: T) => string): Array<[T, number]> {
  const counts = new Map<string, [T, number]>();
  for (const item of items) {
    const key = keyOf(item);
    const seen = counts.get(key);
    if (seen) seen[1]++;
    else counts.set(key, [item, 1]);
  }
  return [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, value]) => value);
}

/**
 * Adds a ballot's write-ins to their survey's groups and spellings, in the ballot's transaction:
 * a group with a decision in force counts the new ones as arrived since, counted by it by
 * themselves. Demonstration ballots are not counted (the caller leaves them out).
 */
export async function countWriteIns(trx: Kysely<Database>, projectId: string, writeIns: readonly CountedWriteIn[]): Promise<void> {
  if (!writeIns.length) return;
  const spellings = tallied(writeIns, (w) => `${w.name_key}\u0000${w.category_group}\u0000${w.subcategory}\u0000${w.name}`);
  await trx
    .insertInto('write_in_spellings')
    .values(
      spellings.map(([w, n]) => ({
        project_id: projectId,
        category_group: w.category_group,
        subcategory: w.subcategory,
        name_key: w.name_key,
        name: w.name,
        writes: n,
      })),
    )
    .onConflict((conflict) =>
      conflict
        .columns(['project_id', 'name_key', 'category_group', 'subcategory', 'name'])
        .doUpdateSet((eb) => ({ writes: eb('write_in_spellings.writes', '+', eb.ref('excluded.writes')) })),
    )
    .execute();
  const groups = tallied(writeIns, (w) => `${w.name_key}\u0000${w.category_group}\u0000${w.subcategory}`);
  await trx
    .insertInto('write_in_groups')
    .values(
      groups.map(([w, n]) => ({
        project_id: projectId,
        category_group: w.category_group,
        subcategory: w.subcategory,
        name_key: w.name_key,
        id: writeInGroupId(w.category_group, w.subcategory, w.name_key),
        writes: n,
        decided: 0,
        decision_id: null,
        nominee_id: null,
        since_decision: 0,
      })),
    )
    .onConflict((conflict) =>
      conflict.columns(['project_id', 'name_key', 'category_group', 'subcategory']).doUpdateSet((eb) => ({
        writes: eb('write_in_groups.writes', '+', eb.ref('excluded.writes')),
        since_decision: eb('write_in_groups.since_decision', '+', eb('write_in_groups.decided', '*', eb.ref('excluded.writes'))),
      })),
    )
    .execute();
}

/**
 * Writes decisions just recorded beside their groups' counts, in the decision's transaction: the
 * group decided (or waiting again, for an undo), the nominee it counts for, and none arrived since.
 */
export async function markWriteInGroups(trx: Kysely<Database>, decisions: readonly NewWriteInDecision[]): Promise<void> {
  const ordered = [...decisions].sort((a, b) =>
    `${a.name_key}\u0000${a.category_group}\u0000${a.subcategory}` < `${b.name_key}\u0000${b.category_group}\u0000${b.subcategory}` ? -1 : 1,
  );
  for (const decision of ordered) {
    const undone = decision.action === 'undo';
    await trx
      .updateTable('write_in_groups')
      .set({
        decided: undone ? 0 : 1,
        decision_id: undone ? null : decision.id,
        nominee_id: undone || decision.action === 'reject' ? null : (decision.nominee_id ?? null),
        since_decision: 0,
      })
      .where('project_id', '=', decision.project_id)
      .where('name_key', '=', decision.name_key)
      .where('category_group', '=', decision.category_group)
      .where('subcategory', '=', decision.subcategory)
      .execute();
  }
}
