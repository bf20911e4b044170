import { SqliteAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never against today's table types.

/**
 * SQLite keeps a table and its primary key in two b-trees unless told WITHOUT ROWID; for the
 * child tables of a ballot, keyed by (ballot_id, …), one tree halves the pages each ballot
 * writes. PostgreSQL has no such option (and needs none).
 */
function isSqlite(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/** Creates the ballot tables, the tile claims, uploads, idempotency keys and rate limits. */
export async function up(db: Kysely<any>): Promise<void> {
  const withoutRowid = isSqlite(db) ? sql`without rowid` : sql``;
  await db.schema
    .createTable('ballots')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('project_id', 'text', (col) => col.notNull())
    .addColumn('link', 'text', (col) => col.notNull())
    .addColumn('personal_secret', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('ballots_one_per_secret', ['project_id', 'personal_secret'])
    .execute();
  await db.schema.createIndex('ballots_project_created').on('ballots').columns(['project_id', 'created_at']).execute();

  const child = (name: string) =>
    db.schema
      .createTable(name)
      .addColumn('ballot_id', 'text', (col) => col.notNull())
      .addForeignKeyConstraint(`${name}_ballot_fk`, ['ballot_id'], 'ballots', ['id'], (fk) => fk.onDelete('cascade'));

  await child('answers')
    .addColumn('field', 'text', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('value', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('answers_pk', ['ballot_id', 'field', 'position'])
    .modifyEnd(withoutRowid)
    .execute();

  await child('nominations')
    .addColumn('category_group', 'text', (col) => col.notNull())
    .addColumn('subcategory', 'text', (col) => col.notNull())
    .addColumn('slot', 'integer', (col) => col.notNull())
    .addColumn('nominee_id', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('nominations_pk', ['ballot_id', 'category_group', 'subcategory', 'slot'])
    .modifyEnd(withoutRowid)
    .execute();

  await child('write_ins')
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('category_group', 'text', (col) => col.notNull())
    .addColumn('subcategory', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('write_ins_pk', ['ballot_id', 'position'])
    .modifyEnd(withoutRowid)
    .execute();

  await child('reservations')
    .addColumn('field', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('tile', 'text')
    .addColumn('custom_text', 'text')
    .addColumn('status', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('reservations_pk', ['ballot_id', 'field'])
    .modifyEnd(withoutRowid)
    .execute();

  await child('tile_claims')
    .addColumn('project_id', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('tile', 'text', (col) => col.notNull())
    .addColumn('claimed_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text')
    .addPrimaryKeyConstraint('tile_claims_pk', ['project_id', 'kind', 'tile'])
    .execute();

  await child('uploads')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('field', 'text', (col) => col.notNull())
    .addColumn('original_name', 'text', (col) => col.notNull())
    .addColumn('content_type', 'text', (col) => col.notNull())
    .addColumn('size', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('fingerprint', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('locked_until', 'text', (col) => col.notNull())
    .addColumn('ballot_id', 'text', (col) => col.references('ballots.id').onDelete('set null'))
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('client', 'text', (col) => col.primaryKey())
    .addColumn('window_number', 'integer', (col) => col.notNull())
    .addColumn('hits', 'integer', (col) => col.notNull())
    .execute();
}

/** Drops every table this migration created. */
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['rate_limits', 'idempotency_keys', 'uploads', 'tile_claims', 'reservations', 'write_ins', 'nominations', 'answers', 'ballots']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
