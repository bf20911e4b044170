import { SqliteAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never against today's table types.

/** The one ballot per personal link, now for current ballots only: a replaced ballot keeps its secret. */
const ONE_PER_SECRET = 'ballots_current_per_secret';
/** One current ballot per verified address, as a personal link is one per secret. */
const ONE_PER_EMAIL = 'ballots_current_per_email';

function isSqlite(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/**
 * SQLite cannot drop a table's constraint, so the table is rebuilt from its own stored definition
 * without it (whatever columns earlier migrations added), its rows copied and its indexes made
 * again. Foreign keys are off meanwhile, or dropping the old table would delete every child row;
 * SQLite runs migrations outside a transaction, so the pragma takes effect.
 */
async function rebuildWithoutSecretConstraint(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ type: string; name: string; sql: string | null }>`
    SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'ballots' ORDER BY type DESC`.execute(db);
  const table = rows.find((row) => row.type === 'table')?.sql;
  if (!table) throw new Error('The ballots table is missing.');
  const definition = table
    .replace(/,\s*constraint\s+"ballots_one_per_secret"\s+unique\s*\([^)]*\)/i, '')
    .replace(/^create table\s+"?ballots"?/i, 'create table "ballots_rebuilt"');
  const indexes = rows.filter((row) => row.type === 'index' && row.sql).map((row) => row.sql as string);
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    await sql`BEGIN`.execute(db);
    await sql.raw(definition).execute(db);
    await sql`INSERT INTO ballots_rebuilt SELECT * FROM ballots`.execute(db);
    await sql`DROP TABLE ballots`.execute(db);
    await sql`ALTER TABLE ballots_rebuilt RENAME TO ballots`.execute(db);
    for (const index of indexes) await sql.raw(index).execute(db);
    await sql`COMMIT`.execute(db);
  } catch (error) {
    await sql`ROLLBACK`.execute(db).catch(() => {});
    throw error;
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}

/**
 * Ballots that can be replaced: `replaced_by` (the later ballot's id; NULL while current) and
 * `replaced_at`, the address a voter proved (`verified_email`), and the one-ballot rules kept
 * for current ballots only (partial unique indexes, the same on SQLite and PostgreSQL).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ballots').addColumn('replaced_by', 'text').execute();
  await db.schema.alterTable('ballots').addColumn('replaced_at', 'text').execute();
  await db.schema.alterTable('ballots').addColumn('verified_email', 'text').execute();
  if (isSqlite(db)) await rebuildWithoutSecretConstraint(db);
  else await db.schema.alterTable('ballots').dropConstraint('ballots_one_per_secret').execute();
  await db.schema
    .createIndex(ONE_PER_SECRET)
    .unique()
    .on('ballots')
    .columns(['project_id', 'personal_secret'])
    .where(sql.ref('replaced_by'), 'is', null)
    .execute();
  await db.schema
    .createIndex(ONE_PER_EMAIL)
    .unique()
    .on('ballots')
    .columns(['project_id', 'verified_email'])
    .where(sql.ref('replaced_by'), 'is', null)
    .execute();
}

/** Drops the columns and indexes; the old constraint is not restored, since replaced ballots may now share a secret. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex(ONE_PER_EMAIL).ifExists().execute();
  await db.schema.dropIndex(ONE_PER_SECRET).ifExists().execute();
  await db.schema.alterTable('ballots').dropColumn('verified_email').execute();
  await db.schema.alterTable('ballots').dropColumn('replaced_at').execute();
  await db.schema.alterTable('ballots').dropColumn('replaced_by').execute();
}
