// What a backup holds and whether it can be restored: the parts of the check that SQLite's copies
// and PostgreSQL's dumps share. Each kind's own module reads the file; this one judges what it read
// (its migrations against this version's, the tables they make against those it holds) and says it.
import { closeSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { KNOWN_MIGRATIONS, tablesAfter } from '../../server/db/database.ts';

/** The two kinds of backup: a copy of an SQLite file, or a dump of PostgreSQL in pg_dump's custom format. */
export type BackupKind = 'sqlite' | 'postgres';

/** What a check of a backup file found. */
export interface BackupCheck {
  file: string;
  kind: BackupKind;
  bytes: number;
  /** The migrations it holds, in the order they were applied; undefined when it holds no migration table. */
  applied?: string[];
  /** The rows of each table it holds, by name (Kysely's own tables left out). */
  rows: Record<string, number>;
  /** What was checked, and how, one phrase each: the command says exactly this. */
  checked: string[];
  /** What makes it unusable, one line each: a restore refuses it. */
  problems: string[];
  /** This version's migrations it lacks, taken by an older version: a restore applies them afterwards. */
  behind: string[];
  /** Migrations it holds that this version does not know, taken by a newer version: this one cannot restore it. */
  newer: string[];
}

/** What a database that a restore would replace holds: its ballots, and its refused ballots (kept whole, votes too). */
export interface HeldBallots {
  ballots: number;
  refused: number;
}

/** An empty check of a file, for a kind's module to fill in. */
export function newCheck(file: string, kind: BackupKind, bytes: number): BackupCheck {
  return { file, kind, bytes, rows: {}, checked: [], problems: [], behind: [], newer: [] };
}

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const PG_DUMP_MAGIC = Buffer.from('PGDMP', 'latin1');

/** The kind of backup a file is, by its first bytes; undefined when it is neither. */
export function backupKind(file: string): BackupKind | undefined {
  const head = Buffer.alloc(SQLITE_MAGIC.length);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (head.equals(SQLITE_MAGIC)) return 'sqlite';
  if (head.subarray(0, PG_DUMP_MAGIC.length).equals(PG_DUMP_MAGIC)) return 'postgres';
  return undefined;
}

const plural = (count: number, word: string) => `${count.toLocaleString('en')} ${word}${count === 1 ? '' : 's'}`;

/**
 * Judges the migrations a backup holds (check.applied) against this version's: none unknown (a
 * newer version's backup is refused), none missing but the latest ones (an older version's, which
 * a restore brings up to date); and `tables`, the tables it holds, against those its migrations make.
 */
export async function judgeSchema(check: BackupCheck, tables: readonly string[]): Promise<void> {
  const { applied } = check;
  if (!applied) {
    check.problems.push("it holds no migration table (kysely_migration): it is not a copy of the survey API's database.");
    return;
  }
  const known = new Set(KNOWN_MIGRATIONS);
  check.newer = applied.filter((name) => !known.has(name));
  if (check.newer.length) {
    // Which tables a newer version makes, this one cannot say.
    check.checked.push(`the migrations (${applied.length}): ${check.newer.length} unknown to this version`);
    return;
  }
  const done = new Set(applied);
  const count = applied.length;
  if (!KNOWN_MIGRATIONS.slice(0, count).every((name) => done.has(name))) {
    const skipped = KNOWN_MIGRATIONS.slice(0, count).filter((name) => !done.has(name));
    check.problems.push(
      `its migrations have a gap: ${skipped.join(', ')} not applied, later ones applied; the database it was taken from was not migrated by Peervote.`,
    );
    check.checked.push(`the migrations (${count}): a gap`);
    return;
  }
  check.behind = KNOWN_MIGRATIONS.slice(count);
  check.checked.push(
    check.behind.length
      ? `the migrations: ${count} of this version's ${KNOWN_MIGRATIONS.length}, none unknown (taken by an older version: ${plural(check.behind.length, 'migration')} to apply)`
      : `the migrations: all ${count} of this version's, none unknown`,
  );
  const expected = count ? await tablesAfter(KNOWN_MIGRATIONS[count - 1]) : [];
  const missing = expected.filter((table) => !tables.includes(table));
  if (missing.length)
    check.problems.push(`${plural(missing.length, 'table')} its migrations make ${missing.length === 1 ? 'is' : 'are'} missing: ${missing.join(', ')}.`);
  check.checked.push(
    `the tables those migrations make: ${missing.length ? `${missing.length} of ${expected.length} missing` : `all ${expected.length} there`}`,
  );
}

/** A size in bytes, for people: "24.1 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let size = bytes / 1024;
  let unit = 0;
  for (; size >= 1024 && unit < units.length - 1; unit++) size /= 1024;
  return `${size.toFixed(size < 10 ? 1 : 0)} ${units[unit]}`;
}

/** The lines that say what a check looked at and what it counted: each phrase checked, then each table with its rows. */
export function describeCheck(check: BackupCheck): string[] {
  const what = check.kind === 'sqlite' ? 'an SQLite database' : "a PostgreSQL dump (pg_dump's custom format)";
  const lines = [`${check.file}: ${what} of ${formatBytes(check.bytes)}.`, 'Checked:'];
  for (const phrase of check.checked) lines.push(`  - ${phrase}`);
  const tables = Object.keys(check.rows).sort();
  if (tables.length) {
    const width = Math.max(...tables.map((table) => table.length));
    const digits = Math.max(...tables.map((table) => check.rows[table].toLocaleString('en').length));
    lines.push('Rows:');
    for (const table of tables) lines.push(`  ${table.padEnd(width)}  ${check.rows[table].toLocaleString('en').padStart(digits)}`);
  }
  return lines;
}

/** A backup taken by a newer version, in words. */
export function newerWords(check: BackupCheck): string {
  return `it was taken by a newer version of Peervote: ${plural(check.newer.length, 'migration')} unknown to this one (${check.newer.join(', ')}); restore it with that version.`;
}

/**
 * The problems of a check as a command prints them, one line each, named by the file's name.
 * A backup is whole when only its version differs from this one: `backup` writes it either way;
 * `restore` refuses a newer version's and brings an older version's up to date; `verify` asks
 * for this version's migrations exactly.
 */
export function problemLines(check: BackupCheck, command: 'backup' | 'restore' | 'verify'): string[] {
  const problems = [...check.problems];
  if (command !== 'backup' && check.newer.length) problems.push(newerWords(check));
  if (command === 'verify' && check.behind.length && !problems.length) {
    problems.push(
      `it lacks ${plural(check.behind.length, 'migration')} of this version (${check.behind.join(', ')}): it was taken by an older version; restore applies them.`,
    );
  }
  return problems.map((problem) => `${path.basename(check.file)}: ${problem}`);
}
