import { setTimeout as wait } from 'node:timers/promises';
import { Kysely, Migrator, PostgresDialect, SqliteAdapter, SqliteDialect, sql, type MigrationProvider } from 'kysely';
import type { Database } from './schema.ts';
import { migrations } from './migrations/index.ts';
import { openNodeSqlite, tryLock } from './node-sqlite.ts';
import { serverConfig } from '../config.ts';

/** Which database to open: PostgreSQL when a URL is given, else the SQLite file. */
export interface DatabaseSettings {
  databaseUrl?: string;
  sqliteFile: string;
  sqliteSynchronous: 'NORMAL' | 'FULL';
  pgPoolMax: number;
}

/** The dialect a database speaks, for the few places where the SQL differs. */
export type DialectName = 'sqlite' | 'postgres';

/** Opens the database the settings name: PostgreSQL through `pg`, or SQLite through `node:sqlite`. */
export function createDatabase(settings: DatabaseSettings): { db: Kysely<Database>; dialect: DialectName } {
  if (settings.databaseUrl) {
    const { databaseUrl, pgPoolMax } = settings;
    // `pg` (and the network modules it loads) comes in with the first query: a process on SQLite never loads it.
    const pool = async () => {
      const { default: pg } = await import('pg');
      const opened = new pg.Pool({ connectionString: databaseUrl, max: pgPoolMax });
      // An idle connection that drops (a database restart) must not end the process; the pool reconnects.
      opened.on('error', (error) => console.error(`PostgreSQL connection lost: ${error.message}`));
      return opened;
    };
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
  }
  const database = openNodeSqlite(settings.sqliteFile, settings.sqliteSynchronous);
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database }) }), dialect: 'sqlite' };
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** The name of every migration this version knows, in the order they run. */
export const KNOWN_MIGRATIONS: readonly string[] = Object.keys(migrations).sort();

/** The file of an SQLite database, or undefined for PostgreSQL or an SQLite database in memory. */
export async function sqliteFile(db: Kysely<Database>): Promise<string | undefined> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return undefined;
  const { rows } = await sql<{ file: string }>`SELECT file FROM pragma_database_list WHERE name = 'main'`.execute(db);
  return rows[0]?.file || undefined;
}

/** The migrations a database has applied, in the order applied; undefined when it has never been migrated (no migration table). */
async function appliedMigrations(db: Kysely<Database>): Promise<string[] | undefined> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  const { rows } = sqlite
    ? await sql<{ found: string | null }>`SELECT name AS found FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'`.execute(db)
    : await sql<{ found: string | null }>`SELECT to_regclass('kysely_migration')::text AS found`.execute(db);
  if (!rows[0]?.found) return undefined;
  const applied = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY "timestamp", name`.execute(db);
  return applied.rows.map((row) => row.name);
}

/**
 * The tables a database holds once the migrations up to `lastMigration` (one this version knows)
 * have run, but Kysely's own: worked out by running them on an SQLite database in memory, as the
 * table names are the same on PostgreSQL.
 */
export async function tablesAfter(lastMigration: string): Promise<string[]> {
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: openNodeSqlite(':memory:', 'NORMAL') }) });
  try {
    const { error } = await new Migrator({ db, provider }).migrateTo(lastMigration);
    if (error) throw error;
    const { rows } = await sql<{ name: string }>`
      SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' AND name NOT LIKE 'kysely%' ORDER BY name`.execute(db);
    return rows.map((row) => row.name);
  } finally {
    await db.destroy();
  }
}

/** PostgreSQL's advisory lock that one process at a time holds to migrate (Kysely's own, taken inside, is another). */
const POSTGRES_MIGRATION_LOCK = 7_270_000_114;

/** How long a process waits for another's migrations before it gives up. */
const MIGRATION_WAIT_MS = 10 * 60_000;

/**
 * Takes the migration lock of the database on `db`'s one connection, waiting while another
 * process holds it; resolves with what releases it. On PostgreSQL an advisory lock of the
 * session; on SQLite, whose lock on the database is a transaction that some migrations must
 * manage themselves, the write lock of a small file beside the database, `<file>-migration-lock`
 * (kept: removing it while another process waits on it would let a third take a lock of its own).
 * Either is let go by the system if the process dies.
 */
async function migrationLock(db: Kysely<Database>): Promise<() => Promise<void>> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
    await sql`SELECT pg_advisory_lock(${sql.lit(POSTGRES_MIGRATION_LOCK)})`.execute(db);
    return async () => void (await sql`SELECT pg_advisory_unlock(${sql.lit(POSTGRES_MIGRATION_LOCK)})`.execute(db));
  }
  const file = await sqliteFile(db);
  if (!file) return async () => undefined;
  // Polled, not waited for inside SQLite, which would hold up the whole thread (a server's requests too).
  const deadline = Date.now() + MIGRATION_WAIT_MS;
  for (let pause = 5; ; pause = Math.min(pause * 2, 200)) {
    const release = tryLock(`${file}-migration-lock`);
    if (release) return async () => release();
    if (Date.now() > deadline) throw new Error(`another process has held the migration lock of ${file} for ${MIGRATION_WAIT_MS / 60_000} minutes`);
    await wait(pause);
  }
}

/**
 * Brings the schema up to the latest migration; throws with the failing migration's error. A
 * database already up to date is only read. Otherwise the migrations run under a lock (see
 * migrationLock), so that two processes started at once on a new database (two API servers, a
 * server and a command) do not both run them: the second finds them done.
 */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const applied = await appliedMigrations(db);
  if (applied && KNOWN_MIGRATIONS.every((name) => applied.includes(name))) return;
  const { error, results } = await db.connection().execute(async (connection) => {
    const release = await migrationLock(connection);
    try {
      return await new Migrator({ db: connection, provider }).migrateToLatest();
    } finally {
      await release();
    }
  });
  const failed = results?.find((result) => result.status === 'Error');
  if (error) throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

let ready: Promise<{ db: Kysely<Database>; dialect: DialectName }> | undefined;

/** This process's database, opened and migrated on first use (bin/serve.mjs makes that first use happen at start). */
export function database(): Promise<{ db: Kysely<Database>; dialect: DialectName }> {
  ready ??= (async () => {
    const opened = createDatabase(serverConfig());
    await migrateToLatest(opened.db);
    return opened;
  })();
  ready.catch(() => (ready = undefined));
  return ready;
}
