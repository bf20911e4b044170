import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never against today's table types.

/** Secrets marked in one statement. */
const BATCH = 500;

/**
 * The console's participation counted as ballots arrive rather than per request:
 * - `ballot_days`, ballots per survey and day (in a few rows a day), filled from the ballots
 *   stored so far;
 * - `people.responded`, set for each person whose personal link has a current ballot (the
 *   secret's SHA-256 is worked out here, as SQLite has no SHA-256 of its own), and
 *   `people.group_ids`, with a partial index that counts the respondents;
 * - `roster_columns` and `roster_groups`, each roster value's invited and responded people,
 *   filled when a survey's people are next read (the digest they are read by now covers the
 *   columns, so every survey's are read again once).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ballot_days')
    .addColumn('project_id', 'text', (col) => col.notNull())
    .addColumn('day', 'text', (col) => col.notNull())
    .addColumn('shard', 'integer', (col) => col.notNull())
    .addColumn('ballots', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('ballot_days_pkey', ['project_id', 'day', 'shard'])
    .execute();
  await sql`INSERT INTO ballot_days (project_id, day, shard, ballots)
    SELECT project_id, substr(created_at, 1, 10), 0, count(*) FROM ballots GROUP BY project_id, substr(created_at, 1, 10)`.execute(db);

  await db.schema
    .alterTable('people')
    .addColumn('responded', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('people')
    .addColumn('group_ids', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  const current = await db
    .selectFrom('ballots')
    .select(['project_id', 'personal_secret'])
    .where('personal_secret', 'is not', null)
    .where('replaced_by', 'is', null)
    .execute();
  const bySurvey = new Map<string, string[]>();
  for (const row of current) {
    const hashes = bySurvey.get(row.project_id) ?? [];
    hashes.push(createHash('sha256').update(row.personal_secret).digest('hex'));
    bySurvey.set(row.project_id, hashes);
  }
  for (const [projectId, hashes] of bySurvey) {
    for (let i = 0; i < hashes.length; i += BATCH) {
      await db
        .updateTable('people')
        .set({ responded: 1 })
        .where('project_id', '=', projectId)
        .where('secret_hash', 'in', hashes.slice(i, i + BATCH))
        .execute();
    }
  }
  await db.schema.createIndex('people_responded').on('people').column('project_id').where(sql.ref('responded'), '=', 1).execute();

  await db.schema
    .createTable('roster_columns')
    .addColumn('project_id', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('groups', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('roster_columns_pkey', ['project_id', 'name'])
    .execute();
  await db.schema
    .createTable('roster_groups')
    .addColumn('project_id', 'text', (col) => col.notNull())
    .addColumn('id', 'integer', (col) => col.notNull())
    .addColumn('column_name', 'text', (col) => col.notNull())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('invited', 'integer', (col) => col.notNull())
    .addColumn('responded', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('roster_groups_pkey', ['project_id', 'id'])
    .execute();
  // The largest groups of a column first, read by a limit from this index.
  await db.schema.createIndex('roster_groups_size').on('roster_groups').columns(['project_id', 'column_name', 'invited desc', 'id']).execute();
}

/** Drops them. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('roster_groups').ifExists().execute();
  await db.schema.dropTable('roster_columns').ifExists().execute();
  await db.schema.dropIndex('people_responded').ifExists().execute();
  await db.schema.alterTable('people').dropColumn('group_ids').execute();
  await db.schema.alterTable('people').dropColumn('responded').execute();
  await db.schema.dropTable('ballot_days').ifExists().execute();
}
