import { Kysely, Migrator, PostgresDialect, SqliteDialect, type MigrationProvider } from 'kysely';
import type { Database } from './schema.ts';
import { migrations } from './migrations/index.ts';
import { openNodeSqlite } from './node-sqlite.ts';
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

/** Brings the schema up to the latest migration; throws with the failing migration's error. */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
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
