import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never against today's table types.

/** Creates the operators' decision tables: write-in reconciliations and reservation confirmations or releases. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('write_in_decisions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('project_id', 'text', (col) => col.notNull())
    .addColumn('name_key', 'text', (col) => col.notNull())
    .addColumn('category_group', 'text', (col) => col.notNull())
    .addColumn('subcategory', 'text', (col) => col.notNull())
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('nominee_id', 'text')
    .addColumn('nominee_name', 'text')
    .addColumn('nominee_specialty', 'text')
    .addColumn('nominee_practice', 'text')
    .addColumn('nominee_city', 'text')
    .addColumn('note', 'text')
    .addColumn('decided_by', 'text', (col) => col.notNull())
    .addColumn('decided_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('write_in_decisions_project').on('write_in_decisions').columns(['project_id', 'id']).execute();

  await db.schema
    .createTable('reservation_decisions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('project_id', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('tile', 'text', (col) => col.notNull())
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('ballot_id', 'text')
    .addColumn('label', 'text')
    .addColumn('decided_by', 'text', (col) => col.notNull())
    .addColumn('decided_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('reservation_decisions_project').on('reservation_decisions').columns(['project_id', 'kind', 'id']).execute();
}

/** Drops the decision tables. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('reservation_decisions').ifExists().execute();
  await db.schema.dropTable('write_in_decisions').ifExists().execute();
}
