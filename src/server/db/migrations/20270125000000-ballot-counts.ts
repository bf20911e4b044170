import { sql, type Kysely } from 'kysely';

/**
 * Adds `ballot_counts`, each survey's ballots per day kept as they are stored, and counts the
 * ballots already stored into it (in shard 0).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ballot_counts')
    .addColumn('project_id', 'text', (col) => col.notNull())
    .addColumn('day', 'text', (col) => col.notNull())
    .addColumn('shard', 'integer', (col) => col.notNull())
    .addColumn('ballots', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('ballot_counts_pkey', ['project_id', 'day', 'shard'])
    .execute();
  await sql`INSERT INTO ballot_counts (project_id, day, shard, ballots)
    SELECT project_id, substr(created_at, 1, 10), 0, count(*) FROM ballots GROUP BY project_id, substr(created_at, 1, 10)`.execute(db);
}

/** Drops it. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ballot_counts').ifExists().execute();
}
