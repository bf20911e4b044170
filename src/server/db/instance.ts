import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import { createDatabase, migrateToLatest, type DialectName } from './database.ts';
import { serverConfig } from '../config.ts';

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
