import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never against today's table types.

/** Creates `refused_ballots`: well-formed ballots the API refused for a rule, kept whole for an operator to admit. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('refused_ballots')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('project_id', 'text', (col) => col.notNull())
    .addColumn('received_at', 'text', (col) => col.notNull())
    .addColumn('status', 'integer', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('problems', 'text', (col) => col.notNull())
    .addColumn('secret', 'text')
    .addColumn('fields', 'text', (col) => col.notNull())
    .addColumn('files', 'text', (col) => col.notNull())
    .addColumn('fingerprint', 'text', (col) => col.notNull())
    .addColumn('admitted_at', 'text')
    .addColumn('admitted_by', 'text')
    .addColumn('admit_reason', 'text')
    .addColumn('ballot_id', 'text')
    .execute();
  // One row per ballot sent, however often a client sends it again.
  await db.schema.createIndex('refused_ballots_fingerprint').on('refused_ballots').columns(['project_id', 'fingerprint']).unique().execute();
}

/** Drops `refused_ballots`. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('refused_ballots').ifExists().execute();
}
