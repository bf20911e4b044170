import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never against today's table types.

/** Adds `signal_runs`, each look for fraud signals with what it found, and `signal_run_kinds`, its counts per kind. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('signal_runs')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('project_id', 'text', (col) => col.notNull())
    .addColumn('ran_at', 'text', (col) => col.notNull())
    .addColumn('actor', 'text', (col) => col.notNull())
    .addColumn('via', 'text', (col) => col.notNull())
    .addColumn('thresholds', 'text', (col) => col.notNull())
    .addColumn('ballots_stored', 'integer', (col) => col.notNull())
    .addColumn('ballots_read', 'integer', (col) => col.notNull())
    .addColumn('clusters', 'integer', (col) => col.notNull())
    .addColumn('ballots_named', 'integer', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('signal_runs_survey').on('signal_runs').columns(['project_id', 'ran_at', 'id']).execute();
  await db.schema
    .createTable('signal_run_kinds')
    .addColumn('run_id', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('clusters', 'integer', (col) => col.notNull())
    .addColumn('ballots_named', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('signal_run_kinds_pkey', ['run_id', 'kind'])
    .execute();
}

/** Drops them. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('signal_run_kinds').ifExists().execute();
  await db.schema.dropTable('signal_runs').ifExists().execute();
}
