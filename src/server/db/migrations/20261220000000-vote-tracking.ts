import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never against today's table types.

/**
 * Receipts on ballots, the opening of personal links (by a hash of the secret, never the
 * secret), and the pseudonymous voter keys a purge of personal answers leaves behind.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ballots').addColumn('receipt', 'text').execute();
  await db.schema.createIndex('ballots_receipt').unique().on('ballots').columns(['project_id', 'receipt']).execute();

  await db.schema
    .createTable('link_opens')
    .addColumn('project_id', 'text', (col) => col.notNull())
    .addColumn('secret_hash', 'text', (col) => col.notNull())
    .addColumn('first_opened_at', 'text', (col) => col.notNull())
    .addColumn('last_opened_at', 'text', (col) => col.notNull())
    .addColumn('opens', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('link_opens_pk', ['project_id', 'secret_hash'])
    .execute();

  await db.schema
    .createTable('ballot_pseudonyms')
    .addColumn('ballot_id', 'text', (col) => col.primaryKey().references('ballots.id').onDelete('cascade'))
    .addColumn('email_key', 'text')
    .addColumn('license_key', 'text')
    .addColumn('nominee_id', 'text')
    .addColumn('self_nominee_ids', 'text', (col) => col.notNull())
    .addColumn('purged_at', 'text', (col) => col.notNull())
    .execute();
}

/** Drops what this migration added. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ballot_pseudonyms').ifExists().execute();
  await db.schema.dropTable('link_opens').ifExists().execute();
  await db.schema.dropIndex('ballots_receipt').ifExists().execute();
  await db.schema.alterTable('ballots').dropColumn('receipt').execute();
}
