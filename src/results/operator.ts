// What every operator command stands on: the one-line error it reports a mistake with, and the
// survey API's database, opened and brought up to date.
import { existsSync } from 'node:fs';
import type { Kysely } from 'kysely';
import type { Database } from '../server/db/schema.ts';
import { createDatabase, migrateToLatest, type DatabaseSettings, type DialectName } from '../server/db/database.ts';

/** A mistake in what the operator asked (an unknown slug, nominee or tile): the command says so in one line and changes nothing. */
export class OperatorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OperatorError';
  }
}

/** Where a database is, for messages: the SQLite file, or the PostgreSQL URL without its password. */
function describeDatabase(settings: DatabaseSettings): string {
  if (!settings.databaseUrl) return settings.sqliteFile;
  try {
    const url = new URL(settings.databaseUrl);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'the PostgreSQL database of DATABASE_URL';
  }
}

/**
 * Opens the survey API's database for an operator's command and brings its schema up to date,
 * as the API does when it starts. A SQLite file that is not there is not created: the command
 * would only find no ballots in it. Any failure is an OperatorError in one line.
 */
export async function openOperatorDatabase(settings: DatabaseSettings): Promise<{ db: Kysely<Database>; dialect: DialectName; where: string }> {
  const where = describeDatabase(settings);
  if (!settings.databaseUrl && !existsSync(settings.sqliteFile)) {
    throw new OperatorError(
      `Cannot open the database: there is no SQLite file at ${where} (set DATA_DIR or SQLITE_FILE as the survey API has them, or DATABASE_URL for PostgreSQL).`,
    );
  }
  let opened: { db: Kysely<Database>; dialect: DialectName } | undefined;
  try {
    opened = createDatabase({ ...settings, pgPoolMax: Math.min(settings.pgPoolMax, 2) });
    // A connection first, so that a database out of reach is told as such, not as a failed migration.
    await opened.db.connection().execute(async () => undefined);
    await migrateToLatest(opened.db);
    return { ...opened, where };
  } catch (error) {
    await opened?.db.destroy().catch(() => undefined);
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new OperatorError(`Cannot open the database ${where}: ${message || (error as { code?: string }).code || 'unknown error'}.`);
  }
}
