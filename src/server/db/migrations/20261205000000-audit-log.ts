import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never against today's table types.

/** Creates the append-only audit trail of every operator command that changes data. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('project_id', 'text', (col) => col.notNull())
    .addColumn('at', 'text', (col) => col.notNull())
    .addColumn('actor', 'text', (col) => col.notNull())
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('subject', 'text')
    .addColumn('reason', 'text')
    .addColumn('details', 'text')
    .execute();
  await db.schema.createIndex('audit_log_project').on('audit_log').columns(['project_id', 'id']).execute();
}

/** Drops the audit trail. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_log').ifExists().execute();
}
