import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never against today's table types.

/** Adds `send_runs`: at most one `send` run a survey mails its roster at a time. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('send_runs')
    .addColumn('project_id', 'text', (col) => col.primaryKey())
    .addColumn('run_id', 'text', (col) => col.notNull())
    .addColumn('host', 'text', (col) => col.notNull())
    .addColumn('pid', 'integer', (col) => col.notNull())
    .addColumn('campaign', 'text', (col) => col.notNull())
    .addColumn('started_at', 'text', (col) => col.notNull())
    .addColumn('renewed_at', 'text', (col) => col.notNull())
    .execute();
}

/** Drops it. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('send_runs').ifExists().execute();
}
