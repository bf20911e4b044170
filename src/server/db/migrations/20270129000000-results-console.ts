import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never against today's table types.

/**
 * Adds `results_counts`, each count of a survey the console ran (a Count, an early look, a
 * publication) with what it found, and `unseal_requests`, each owner's request to see a sealed
 * survey's count before its close, with the other owner who approved it and the look it gave.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('results_counts')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('project_id', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('request_id', 'text')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('started_at', 'text', (col) => col.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('actor', 'text', (col) => col.notNull())
    .addColumn('actor_email', 'text', (col) => col.notNull())
    .addColumn('ballots_stored', 'integer', (col) => col.notNull())
    .addColumn('summary', 'text')
    .addColumn('tally_csv', 'text')
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('results_counts_survey').on('results_counts').columns(['project_id', 'kind', 'started_at']).execute();
  await db.schema.createIndex('results_counts_request').on('results_counts').columns(['request_id']).execute();
  await db.schema
    .createTable('unseal_requests')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('project_id', 'text', (col) => col.notNull())
    .addColumn('asked_by', 'text', (col) => col.notNull())
    .addColumn('asked_by_email', 'text', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('asked_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('approved_by', 'text')
    .addColumn('approved_by_email', 'text')
    .addColumn('approved_at', 'text')
    .addColumn('looked_at', 'text')
    .execute();
  await db.schema.createIndex('unseal_requests_survey').on('unseal_requests').columns(['project_id', 'asked_at']).execute();
}

/** Drops them. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('unseal_requests').ifExists().execute();
  await db.schema.dropTable('results_counts').ifExists().execute();
}
