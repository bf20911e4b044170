import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { nameKey } from '../../../survey/nominees/name-key.ts';

// Frozen in time: written against Kysely<any>, never against today's table types. The names are
// folded by today's nameKey, the one rule the API folds them by from now on.

/** Rows written in one statement. */
const BATCH = 500;

/**
 * The console's write-ins page, read a page at a time rather than grouped per request:
 * - `write_ins.name_key`, each write-in's name folded as write-ins are grouped ("Dr. José  Wu" →
 *   "jose wu"), filled here and by the API as it stores a ballot; indexed with the sub-category
 *   for a group's newest ballots;
 * - `write_in_spellings` and `write_in_groups`, the write-ins counted by spelling and by group
 *   (demonstration ballots left out), each group with the decision in force on it, the nominee it
 *   counts for and the write-ins arrived since; indexed in the queue's order (waiting first, then
 *   the most written) and by nominee;
 * - a nominee's nominations in a sub-category, indexed for the counts before and after an attachment.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('write_ins')
    .addColumn('name_key', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  const names = await db.selectFrom('write_ins').select('name').distinct().execute();
  await db.schema
    .createTable('write_in_names_folded')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('name_key', 'text', (col) => col.notNull())
    .execute();
  for (let at = 0; at < names.length; at += BATCH)
    await db
      .insertInto('write_in_names_folded')
      .values(names.slice(at, at + BATCH).map(({ name }) => ({ name, name_key: nameKey(name) })))
      .execute();
  if (names.length) await sql`UPDATE write_ins SET name_key = (SELECT f.name_key FROM write_in_names_folded f WHERE f.name = write_ins.name)`.execute(db);
  await db.schema.dropTable('write_in_names_folded').execute();
  await db.schema.createIndex('write_ins_group').on('write_ins').columns(['name_key', 'category_group', 'subcategory', 'ballot_id']).execute();
  await db.schema.createIndex('nominations_nominee').on('nominations').columns(['nominee_id', 'category_group', 'subcategory']).execute();

  await db.schema
    .createTable('write_in_spellings')
    .addColumn('project_id', 'text', (col) => col.notNull())
    .addColumn('category_group', 'text', (col) => col.notNull())
    .addColumn('subcategory', 'text', (col) => col.notNull())
    .addColumn('name_key', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('writes', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('write_in_spellings_pkey', ['project_id', 'name_key', 'category_group', 'subcategory', 'name'])
    .execute();
  await db.schema
    .createTable('write_in_groups')
    .addColumn('project_id', 'text', (col) => col.notNull())
    .addColumn('category_group', 'text', (col) => col.notNull())
    .addColumn('subcategory', 'text', (col) => col.notNull())
    .addColumn('name_key', 'text', (col) => col.notNull())
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('writes', 'integer', (col) => col.notNull())
    .addColumn('decided', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('decision_id', 'text')
    .addColumn('nominee_id', 'text')
    .addColumn('since_decision', 'integer', (col) => col.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('write_in_groups_pkey', ['project_id', 'name_key', 'category_group', 'subcategory'])
    .execute();
  await sql`CREATE INDEX write_in_groups_queue ON write_in_groups (project_id, decided, writes DESC, name_key, category_group, subcategory)`.execute(db);
  await db.schema.createIndex('write_in_groups_id').on('write_in_groups').columns(['project_id', 'id']).execute();
  await db.schema.createIndex('write_in_groups_nominee').on('write_in_groups').columns(['project_id', 'nominee_id', 'category_group', 'subcategory']).execute();

  await sql`INSERT INTO write_in_spellings (project_id, category_group, subcategory, name_key, name, writes)
    SELECT b.project_id, w.category_group, w.subcategory, w.name_key, w.name, count(*)
    FROM write_ins w JOIN ballots b ON b.id = w.ballot_id WHERE b.link <> 'demo'
    GROUP BY b.project_id, w.category_group, w.subcategory, w.name_key, w.name`.execute(db);
  const groups = await db
    .selectFrom('write_in_spellings')
    .select(['project_id', 'category_group', 'subcategory', 'name_key', (eb) => eb.fn.sum('writes').as('writes')])
    .groupBy(['project_id', 'category_group', 'subcategory', 'name_key'])
    .execute();
  const idOf = (group: string, subcategory: string, key: string) =>
    createHash('sha256').update(`${group}\u0000${subcategory}\u0000${key}`).digest('hex').slice(0, 16);
  for (let at = 0; at < groups.length; at += BATCH)
    await db
      .insertInto('write_in_groups')
      .values(
        groups.slice(at, at + BATCH).map((g) => ({
          project_id: g.project_id,
          category_group: g.category_group,
          subcategory: g.subcategory,
          name_key: g.name_key,
          id: idOf(g.category_group, g.subcategory, g.name_key),
          writes: Number(g.writes),
        })),
      )
      .execute();

  // The decision in force on each group: its latest, unless that is an undo.
  const decisions = await db.selectFrom('write_in_decisions').selectAll().orderBy('decided_at').orderBy('id').execute();
  const inForce = new Map<string, any>();
  for (const d of decisions) {
    const key = `${d.project_id}\u0000${d.name_key}\u0000${d.category_group}\u0000${d.subcategory}`;
    if (d.action === 'undo') inForce.delete(key);
    else inForce.set(key, d);
  }
  for (const d of inForce.values()) {
    const since = await db
      .selectFrom('write_ins as w')
      .innerJoin('ballots as b', 'b.id', 'w.ballot_id')
      .where('w.name_key', '=', d.name_key)
      .where('w.category_group', '=', d.category_group)
      .where('w.subcategory', '=', d.subcategory)
      .where('b.project_id', '=', d.project_id)
      .where('b.link', '<>', 'demo')
      .where('b.created_at', '>', d.decided_at)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    await db
      .updateTable('write_in_groups')
      .set({ decided: 1, decision_id: d.id, nominee_id: d.action === 'reject' ? null : d.nominee_id, since_decision: Number(since.n) })
      .where('project_id', '=', d.project_id)
      .where('name_key', '=', d.name_key)
      .where('category_group', '=', d.category_group)
      .where('subcategory', '=', d.subcategory)
      .execute();
  }
}

/** Drops them. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('write_in_groups').ifExists().execute();
  await db.schema.dropTable('write_in_spellings').ifExists().execute();
  await db.schema.dropIndex('nominations_nominee').ifExists().execute();
  await db.schema.dropIndex('write_ins_group').ifExists().execute();
  await db.schema.alterTable('write_ins').dropColumn('name_key').execute();
}
