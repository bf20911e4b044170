import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never against today's table types.

/**
 * The codes mailed to voters who prove an address (`verify: email` or `roster`), with their
 * tries; and each ballot's fill time, the whole seconds from the form becoming usable to Submit.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ballots').addColumn('fill_seconds', 'integer').execute();
  await db.schema
    .createTable('verification_codes')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('project_id', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('secret', 'text')
    .addColumn('code_hash', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('wrong_tries', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('verification_codes_address').on('verification_codes').columns(['project_id', 'email', 'created_at']).execute();
}

/** Drops the codes and the fill time. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('verification_codes').ifExists().execute();
  await db.schema.alterTable('ballots').dropColumn('fill_seconds').execute();
}
