import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never against today's table types.

/**
 * Keeps what each look for signals found, not only its counts, so that the console's signals
 * page shows a look's clusters and their ballots without reading a million ballots itself:
 * `signal_run_clusters`, each cluster of a run in the order `results signals` gives them, and
 * `signal_run_ballots`, the ballots each names, paged by (run_id, position, ballot_id). Runs
 * recorded before have no clusters kept, which the page says. And indexes the audit trail by
 * what an entry was done to, so that an act refused as done already finds who did it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('signal_run_clusters')
    .addColumn('run_id', 'text', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('score', 'real', (col) => col.notNull())
    .addColumn('evidence', 'text', (col) => col.notNull())
    .addColumn('ballots', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('signal_run_clusters_pkey', ['run_id', 'position'])
    .execute();
  await db.schema
    .createTable('signal_run_ballots')
    .addColumn('run_id', 'text', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('ballot_id', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('signal_run_ballots_pkey', ['run_id', 'position', 'ballot_id'])
    .execute();
  await db.schema.createIndex('audit_log_subject').on('audit_log').columns(['project_id', 'subject', 'seq']).execute();
}

/** Drops them. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_log_subject').ifExists().execute();
  await db.schema.dropTable('signal_run_ballots').ifExists().execute();
  await db.schema.dropTable('signal_run_clusters').ifExists().execute();
}
