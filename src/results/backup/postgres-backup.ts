// Backups of a PostgreSQL database with PostgreSQL's own programs: pg_dump's custom format (one
// snapshot of the database while the API writes), its check with pg_restore, and pg_restore back
// into the database, in one transaction.
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import { createDatabase } from '../../server/db/database.ts';
import { OperatorError } from '../operator.ts';
import { judgeSchema, newCheck, type BackupCheck, type HeldBallots } from './backup-check.ts';
import { connectionOf, errorsIn, postgresProgram, runProgram, type PostgresProgram } from './postgres-programs.ts';

/** A Kysely on one connection of the database of `url`, for a command's few queries. */
function openPostgres(url: string): Kysely<Database> {
  return createDatabase({ databaseUrl: url, sqliteFile: '', sqliteSynchronous: 'NORMAL', pgPoolMax: 1 }).db;
}

/** The first line of an error, for a one-line message. */
const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0];

/** The server's major version (SHOW server_version_num: 150018 is 15). */
async function serverMajor(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ server_version_num: string }>`SHOW server_version_num`.execute(db);
  return Math.floor(Number(rows[0].server_version_num) / 10_000);
}

/** The URL of another database on the same server. */
function sibling(url: string, name: string): string {
  const address = new URL(url);
  address.pathname = `/${name}`;
  return address.toString();
}

/**
 * Dumps the database of `url` into the new file `into` with pg_dump --format=custom (one
 * transaction's snapshot, taken while the API goes on writing), with a pg_dump of the server's
 * version; `onTable` hears of each table as pg_dump starts on its rows. Answers the pg_dump used.
 */
export async function dumpPostgres(url: string, into: string, onTable: (table: string) => void): Promise<PostgresProgram> {
  const db = openPostgres(url);
  let major: number;
  try {
    major = await serverMajor(db);
  } catch (error) {
    throw new OperatorError(`Cannot reach the PostgreSQL database of DATABASE_URL: ${firstLine(error)}.`);
  } finally {
    await db.destroy();
  }
  const { program } = postgresProgram('pg_dump', major);
  const { dbname, env } = connectionOf(url);
  const { code, errors } = await runProgram(program, ['--format=custom', '--verbose', '--no-password', `--file=${into}`, dbname], {
    env,
    stderr: (line) => {
      const table = /dumping contents of table "(?:public\.)?([^"]+)"/.exec(line)?.[1];
      if (table) onTable(table);
    },
  });
  if (code !== 0) throw new OperatorError(`pg_dump ${program.version} failed: ${errorsIn(errors) || `exit code ${code}`}.`);
  return program;
}

/** What a dump's table of contents (pg_restore --list) says: who made it, of what, and which tables it holds and has rows of. */
interface DumpContents {
  dumpedFrom?: string;
  dumpedBy?: string;
  tables: string[];
  withData: string[];
}

function readContents(lines: readonly string[]): DumpContents {
  const contents: DumpContents = { tables: [], withData: [] };
  for (const line of lines) {
    const header = /^;\s+Dumped (from database|by pg_dump) version: (\S+)/.exec(line);
    if (header) contents[header[1] === 'from database' ? 'dumpedFrom' : 'dumpedBy'] = header[2];
    const entry = /^\d+; \d+ \d+ (TABLE|TABLE DATA) public (\S+) /.exec(line);
    if (entry) contents[entry[1] === 'TABLE' ? 'tables' : 'withData'].push(entry[2]);
  }
  return contents;
}

/** COPY's text format: a backslash escapes the next character (\t, \n, \\…); migration names need no more. */
const copyText = (cell: string) => cell.replace(/\\(.)/g, (_, c: string) => ({ t: '\t', n: '\n', r: '\r', '\\': '\\' })[c] ?? c);

/**
 * Reads every row of a dump as pg_restore writes them out (COPY blocks, one line a row), without
 * a server: counts the rows of each table and keeps the migrations' names. A file cut short or
 * damaged makes pg_restore fail before the end.
 */
async function readData(
  program: PostgresProgram,
  file: string,
): Promise<{ code: number; errors: string[]; rows: Record<string, number>; migrations: string[] }> {
  const rows: Record<string, number> = {};
  const migrations: string[] = [];
  let table: string | undefined;
  let nameColumn = -1;
  const { code, errors } = await runProgram(program, ['--data-only', '--file=-', file], {
    stdout: (line) => {
      if (table === undefined) {
        const copy = /^COPY (?:public\.)?"?([^"\s(]+)"? \((.*)\) FROM stdin;$/.exec(line);
        if (!copy) return;
        table = copy[1];
        rows[table] = 0;
        nameColumn =
          table === 'kysely_migration'
            ? copy[2]
                .split(', ')
                .map((column) => column.replaceAll('"', ''))
                .indexOf('name')
            : -1;
      } else if (line === '\\.') table = undefined;
      else {
        rows[table]++;
        if (nameColumn >= 0) migrations.push(copyText(line.split('\t')[nameColumn]));
      }
    },
  });
  return { code, errors, rows, migrations };
}

/** A fresh name for a scratch database. */
const scratchName = () => `peervote_verify_${randomBytes(6).toString('hex')}`;

/**
 * Restores the dump into a scratch database on the server of `url`, counts its rows, and drops
 * it: answers the counts, or why it could not (the role may not create databases…).
 */
async function countRestored(file: string, url: string): Promise<{ rows?: Record<string, number>; server?: string; failed?: string }> {
  const admin = openPostgres(url);
  const name = scratchName();
  const scratchUrl = sibling(url, name);
  let major: number;
  try {
    major = await serverMajor(admin);
    await sql`CREATE DATABASE ${sql.id(name)}`.execute(admin);
  } catch (error) {
    await admin.destroy();
    return { failed: `no scratch database could be made on the server of DATABASE_URL (${firstLine(error)})` };
  }
  const scratch = openPostgres(scratchUrl);
  try {
    const { program } = postgresProgram('pg_restore', major);
    const { dbname, env } = connectionOf(scratchUrl);
    const { code, errors } = await runProgram(program, ['--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', dbname, file], { env });
    if (code !== 0) return { failed: `pg_restore ${program.version} could not restore it into a scratch database: ${errorsIn(errors)}` };
    const tables = await sql<{ name: string }>`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'kysely%'`.execute(
      scratch,
    );
    const rows: Record<string, number> = {};
    for (const { name: table } of tables.rows) {
      const { rows: counted } = await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(scratch);
      rows[table] = Number(counted[0].n);
    }
    return { rows, server: `PostgreSQL ${major}` };
  } finally {
    await scratch.destroy();
    await sql`DROP DATABASE IF EXISTS ${sql.id(name)}${major >= 13 ? sql` WITH (FORCE)` : sql``}`.execute(admin).catch(() => undefined);
    await admin.destroy();
  }
}

/**
 * Checks a dump with pg_restore: its table of contents lists every table, every row of every table
 * reads through to the end (a file cut short or damaged fails there), the migrations it holds
 * against this version's, and the rows of each table. With `scratchUrl` (a reachable server), it is
 * also restored into a scratch database there and its rows counted again.
 */
export async function checkPostgresDump(file: string, scratchUrl?: string): Promise<BackupCheck> {
  const check = newCheck(file, 'postgres', statSync(file).size);
  const { program } = postgresProgram('pg_restore');
  const listing: string[] = [];
  const listed = await runProgram(program, ['--list', file], { stdout: (line) => listing.push(line) });
  if (listed.code !== 0) {
    check.problems.push(`pg_restore ${program.version} cannot read its table of contents: ${errorsIn(listed.errors)}`);
    return check;
  }
  const contents = readContents(listing);
  const from = contents.dumpedFrom ? `, dumped from PostgreSQL ${contents.dumpedFrom} by pg_dump ${contents.dumpedBy ?? '?'}` : '';
  check.checked.push(`its table of contents (pg_restore ${program.version} --list): ${contents.tables.length} tables${from}`);
  const data = await readData(program, file);
  if (data.code !== 0) {
    check.problems.push(`pg_restore cannot read all its rows (cut short or damaged): ${errorsIn(data.errors)}`);
    return check;
  }
  check.checked.push(
    "every table's rows, read through to the end of the file by pg_restore (a compressed block carries zlib's checksum; the format keeps none of its own)",
  );
  const noData = contents.tables.filter((table) => !contents.withData.includes(table));
  if (noData.length) check.problems.push(`its table of contents lists no rows for ${noData.join(', ')}.`);
  check.applied = contents.tables.includes('kysely_migration') ? data.migrations : undefined;
  await judgeSchema(check, contents.tables);
  for (const [table, count] of Object.entries(data.rows)) if (!table.startsWith('kysely')) check.rows[table] = count;
  check.checked.push(`the rows of each table, counted in the file (${Object.keys(check.rows).length} tables)`);
  if (!scratchUrl || check.problems.length) return check;
  const restored = await countRestored(file, scratchUrl);
  if (restored.failed) {
    check.checked.push(`not restored for a trial: ${restored.failed}`);
    return check;
  }
  const differ = Object.keys(check.rows).filter((table) => restored.rows?.[table] !== check.rows[table]);
  for (const table of differ)
    check.problems.push(`restored for a trial, ${table} holds ${restored.rows?.[table] ?? 'no'} rows, the file ${check.rows[table]}.`);
  check.checked.push(
    `restored for a trial into a scratch database on the ${restored.server} server of DATABASE_URL (then dropped): ${differ.length ? 'rows differ' : 'the same rows'}`,
  );
  return check;
}

/** The PostgreSQL database a restore replaces. */
export interface PostgresTarget {
  /** The ballots it holds; undefined when it holds none. */
  held: HeldBallots | undefined;
  /** Other connections to it (a running API): they see the restored data once it is committed. */
  others: number;
  /** A warning about the pg_restore that will run (older than the server). */
  warning?: string;
  /**
   * Puts the dump in its place with pg_restore --clean --if-exists --single-transaction: each of
   * its tables dropped and made again, in one transaction (a failure changes nothing); then
   * `prepare` brings it up to date and writes in it (the audit entry).
   */
  replace(file: string, prepare: (db: Kysely<Database>) => Promise<void>): Promise<void>;
  release(): Promise<void>;
}

/** The count of a table of the public schema, or 0 when there is no such table. */
async function countIn(db: Kysely<Database>, table: string): Promise<number> {
  const { rows } = await sql<{ found: string | null }>`SELECT to_regclass(${`public.${table}`})::text AS found`.execute(db);
  if (!rows[0].found) return 0;
  const { rows: counted } = await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(db);
  return Number(counted[0].n);
}

/**
 * Takes hold of the PostgreSQL database of `url` for a restore: what it holds, who else is connected,
 * the pg_restore of its server's version. A database that does not exist is made (on the same
 * server, by the same role), as the API expects one to be there.
 */
export async function holdPostgres(url: string): Promise<PostgresTarget> {
  let db = openPostgres(url);
  let major: number;
  try {
    major = await serverMajor(db);
  } catch (error) {
    await db.destroy();
    if ((error as { code?: string }).code !== '3D000') throw new OperatorError(`Cannot reach the PostgreSQL database of DATABASE_URL: ${firstLine(error)}.`);
    const name = decodeURIComponent(new URL(url).pathname.slice(1));
    const admin = openPostgres(sibling(url, 'postgres'));
    try {
      await sql`CREATE DATABASE ${sql.id(name)}`.execute(admin);
    } catch (creating) {
      throw new OperatorError(`The database ${name} of DATABASE_URL does not exist, and it could not be made: ${firstLine(creating)}.`);
    } finally {
      await admin.destroy();
    }
    db = openPostgres(url);
    major = await serverMajor(db);
  }
  const counted = { ballots: await countIn(db, 'ballots'), refused: await countIn(db, 'refused_ballots') };
  const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`.execute(
    db,
  );
  const { program, warning } = postgresProgram('pg_restore', major);
  return {
    held: counted.ballots || counted.refused ? counted : undefined,
    others: Number(rows[0].n),
    warning,
    async replace(file, prepare) {
      // --clean drops the dump's own tables only: a table the dump lacks (a later version's) would
      // stay, with rows that belong to no restored ballot, and its migration would fail to run again.
      const listing: string[] = [];
      await runProgram(program, ['--list', file], { stdout: (line) => listing.push(line) });
      const { tables } = readContents(listing);
      const present = await sql<{ name: string }>`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`.execute(db);
      const extra = present.rows.map((row) => row.name).filter((table) => !tables.includes(table));
      if (extra.length)
        throw new OperatorError(
          `The database holds tables the backup does not (${extra.join(', ')}), which a restore would leave as they are: restore into a new, empty database (createdb, then DATABASE_URL naming it), then point the API at it.`,
        );
      const { dbname, env } = connectionOf(url);
      const { code, errors } = await runProgram(
        program,
        ['--clean', '--if-exists', '--single-transaction', '--exit-on-error', '--no-owner', '--no-privileges', dbname, file],
        { env },
      );
      if (code !== 0) throw new OperatorError(`pg_restore ${program.version} failed, and changed nothing (one transaction): ${errorsIn(errors)}.`);
      await prepare(db);
    },
    release: () => db.destroy(),
  };
}
