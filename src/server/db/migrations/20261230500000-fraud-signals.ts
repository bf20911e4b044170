import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never against today's table types.

/**
 * Adds each ballot's salted hashes of its client address and user agent (fraud signals; never
 * the raw values), and the operators' exclusions of whole ballots.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ballots').addColumn('client_hash', 'text').execute();
  await db.schema.alterTable('ballots').addColumn('agent_hash', 'text').execute();
  await db.schema
    .createTable('ballot_exclusions')
    .addColumn('ballot_id', 'text', (col) => col.primaryKey().references('ballots.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('audit_id', 'text', (col) => col.notNull())
    .addColumn('excluded_by', 'text', (col) => col.notNull())
    .addColumn('excluded_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('ballot_exclusions_project').on('ballot_exclusions').columns(['project_id', 'ballot_id']).execute();
}

/** Drops the exclusions and the hash columns. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ballot_exclusions').ifExists().execute();
  await db.schema.alterTable('ballots').dropColumn('agent_hash').execute();
  await db.schema.alterTable('ballots').dropColumn('client_hash').execute();
}
