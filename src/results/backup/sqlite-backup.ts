// Backups of an SQLite database: a consistent copy taken while the API writes, its check, and
// putting one back in place of the database.
import { chmodSync, chownSync, closeSync, copyFileSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import { createDatabase } from '../../server/db/database.ts';
import { OperatorError } from '../operator.ts';
import { judgeSchema, newCheck, type BackupCheck, type HeldBallots } from './backup-check.ts';

/** How long the copy waits for a lock another connection holds (a checkpoint of the API's). */
const BUSY_TIMEOUT_MS = 5000;

/** The files SQLite keeps beside a database in WAL mode: its log and the log's index. */
const SIDE_FILES = ['-wal', '-shm'];

/**
 * Writes a consistent copy of the SQLite database `file` to `into` (a new file) with VACUUM INTO:
 * one read transaction, so the copy is the database as of one instant while the API goes on
 * writing (in WAL mode a reader holds up no writer), compacted and in one file of its own.
 * Not node:sqlite's backup(), SQLite's online backup: it copies a few pages at a time and starts
 * over whenever another connection writes, which a steady stream of ballots may never let end.
 */
export function copySqlite(file: string, into: string): void {
  const db = new DatabaseSync(file, { readOnly: true, timeout: BUSY_TIMEOUT_MS });
  try {
    db.prepare('VACUUM INTO ?').run(into);
  } finally {
    db.close();
  }
}

/** Writes what the system holds of a file (or folder) to the disk. */
export function syncToDisk(file: string): void {
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Opens an SQLite file only to read it, as it is: no lock, no log of its own, nothing written beside it. */
function openToRead(file: string): DatabaseSync {
  const address = pathToFileURL(file);
  address.searchParams.set('immutable', '1');
  return new DatabaseSync(address, { readOnly: true });
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Checks an SQLite backup: SQLite's own integrity check of every page and index, the migrations
 * it holds against this version's, the tables they make, and the rows of each table.
 */
export async function checkSqlite(file: string): Promise<BackupCheck> {
  const check = newCheck(file, 'sqlite', statSync(file).size);
  // A copy of a live file in WAL mode leaves out what its log holds; backup's copies have no log.
  if (SIDE_FILES.some((suffix) => existsSync(`${file}${suffix}`) && statSync(`${file}${suffix}`).size > 0)) {
    check.problems.push(`${path.basename(file)}-wal or -shm lies beside it: it is a live database or a copy of one, not a backup; take one with backup --out.`);
    return check;
  }
  let db: DatabaseSync | undefined;
  try {
    db = openToRead(file);
    const faults = db.prepare('PRAGMA integrity_check(20)').all() as Array<{ integrity_check: string }>;
    const ok = faults.length === 1 && faults[0].integrity_check === 'ok';
    check.checked.push(
      `every page and index (PRAGMA integrity_check): ${ok ? 'no fault' : `${faults.length}${faults.length === 20 ? ' or more' : ''} faults`}`,
    );
    if (!ok) {
      // A row may hold several lines of its own, under a heading ("*** in database main ***").
      const lines = faults.flatMap((row) => row.integrity_check.split('\n')).filter((line) => line.trim() && !line.startsWith('***'));
      for (const fault of lines.slice(0, 5)) check.problems.push(`PRAGMA integrity_check: ${fault.trim()}`);
      if (lines.length > 5) check.problems.push(`PRAGMA integrity_check: and ${lines.length - 5}${faults.length === 20 ? ' or more' : ''} more.`);
      return check;
    }
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'").all() as Array<{ name: string }>).map(
      (row) => row.name,
    );
    if (tables.includes('kysely_migration')) {
      check.applied = (db.prepare('SELECT name FROM kysely_migration ORDER BY "timestamp", name').all() as Array<{ name: string }>).map((row) => row.name);
    }
    await judgeSchema(check, tables);
    for (const table of tables.filter((name) => !name.startsWith('kysely'))) {
      check.rows[table] = Number((db.prepare(`SELECT count(*) AS n FROM ${ident(table)}`).get() as { n: number }).n);
    }
    check.checked.push(`the rows of each table, counted (${Object.keys(check.rows).length} tables)`);
  } catch (error) {
    check.problems.push(`SQLite cannot read it: ${(error as Error).message}.`);
  } finally {
    db?.close();
  }
  return check;
}

/** The SQLite database a restore replaces, held so that no other process opens it meanwhile. */
export interface SqliteTarget {
  /** The ballots it holds; undefined when it holds none (or there is no file). */
  held: HeldBallots | undefined;
  /**
   * Puts the backup in its place: copies it to a file beside it, lets `prepare` bring that copy
   * up to date and write in it (the audit entry), then renames it over the database and removes
   * the old database's log. Until the rename nothing has changed; after it, the backup is whole.
   */
  replace(backup: string, prepare: (db: Kysely<Database>) => Promise<void>): Promise<void>;
  /** Lets the database go without replacing it. */
  release(): void;
}

/** The count of a table, or 0 when the database has no such table. */
function countIn(db: DatabaseSync, table: string): number {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
  return exists ? Number((db.prepare(`SELECT count(*) AS n FROM ${ident(table)}`).get() as { n: number }).n) : 0;
}

/**
 * Takes hold of the SQLite database `file` for a restore: an exclusive lock, which SQLite grants
 * only when no other connection has the file open, so that a running API (or command) is found
 * rather than left writing to a file about to be replaced. A file that is not there, or that
 * SQLite cannot read, holds nothing it can count: `unreadable` says why.
 */
export function holdSqlite(file: string): SqliteTarget & { unreadable?: string } {
  let db: DatabaseSync | undefined;
  let held: HeldBallots | undefined;
  let unreadable: string | undefined;
  if (existsSync(file)) {
    try {
      db = new DatabaseSync(file, { timeout: 0 });
      db.exec('PRAGMA locking_mode = EXCLUSIVE');
      db.exec('BEGIN EXCLUSIVE');
      const counted = { ballots: countIn(db, 'ballots'), refused: countIn(db, 'refused_ballots') };
      held = counted.ballots || counted.refused ? counted : undefined;
      db.exec('COMMIT');
    } catch (error) {
      const { errcode, message } = error as { errcode?: number; message: string };
      db?.close();
      db = undefined;
      // SQLITE_BUSY and SQLITE_LOCKED: another connection has it open.
      if (errcode === 5 || errcode === 6)
        throw new OperatorError(`${file} is open in another process (a running API or command): stop it, restore, then start it again.`);
      unreadable = message;
    }
  }
  const dir = path.dirname(file);
  return {
    held,
    unreadable,
    async replace(backup, prepare) {
      const temp = path.join(dir, `.${path.basename(file)}.restore-${process.pid}`);
      const leftovers = [temp, ...SIDE_FILES.map((suffix) => `${temp}${suffix}`), `${temp}-journal`, `${temp}-migration-lock`];
      try {
        mkdirSync(dir, { recursive: true });
        copyFileSync(backup, temp);
        const { db: restored } = createDatabase({ sqliteFile: temp, sqliteSynchronous: 'FULL', pgPoolMax: 1 });
        try {
          await prepare(restored);
        } finally {
          // Closing the last connection folds its log into the file and removes the log.
          await restored.destroy();
        }
        if (SIDE_FILES.some((suffix) => existsSync(`${temp}${suffix}`))) throw new Error(`the restored copy ${temp} kept its log open`);
        // The restored file takes the place, and so the owner and mode, of the one it replaces; a
        // new one is its folder's owner's (the API's, when an administrator restores), for them alone.
        const before = existsSync(file) ? statSync(file) : undefined;
        chmodSync(temp, before ? before.mode & 0o777 : 0o600);
        const owner = before ?? statSync(dir);
        if (process.getuid?.() === 0) chownSync(temp, owner.uid, owner.gid);
        syncToDisk(temp);
        if (db) {
          // Out of WAL mode, under the lock still held: the old file's log is folded in and removed, and
          // closing it later touches no file by name, whatever has opened the new one by then.
          db.exec('PRAGMA journal_mode = DELETE');
        }
        for (const suffix of SIDE_FILES) rmSync(`${file}${suffix}`, { force: true });
        renameSync(temp, file);
        syncToDisk(dir);
      } finally {
        db?.close();
        db = undefined;
        for (const leftover of leftovers) rmSync(leftover, { force: true });
      }
    },
    release() {
      db?.close();
      db = undefined;
    },
  };
}
