import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never against today's table types.

/**
 * Adds `people`, each survey's invited people keyed by their secret's hash, with the indexes
 * verified voters are found by; and `people_sources`, the digest of the prepopulation each
 * survey's rows were read from.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('people')
    .addColumn('project_id', 'text', (col) => col.notNull())
    .addColumn('secret_hash', 'text', (col) => col.notNull())
    .addColumn('sealed_secret', 'text', (col) => col.notNull())
    .addColumn('email_key', 'text', (col) => col.notNull())
    .addColumn('licence_key', 'text', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('person', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('people_pkey', ['project_id', 'secret_hash'])
    .execute();
  await db.schema.createIndex('people_email').on('people').columns(['project_id', 'email_key']).execute();
  await db.schema.createIndex('people_licence').on('people').columns(['project_id', 'licence_key']).execute();
  await db.schema.createIndex('people_position').on('people').columns(['project_id', 'position']).execute();
  await db.schema
    .createTable('people_sources')
    .addColumn('project_id', 'text', (col) => col.primaryKey())
    .addColumn('digest', 'text', (col) => col.notNull())
    .addColumn('imported_at', 'text', (col) => col.notNull())
    .execute();
}

/** Drops them. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('people_sources').ifExists().execute();
  await db.schema.dropTable('people').ifExists().execute();
}
