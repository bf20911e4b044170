import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import zlib from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_QUERY, demoBallot, freshDatabase, toForm, type FreshDatabase } from './helpers.ts';
import { startServer } from '../support/server.mjs';
import { runResults } from '../support/results-cli.ts';
import { createDatabase } from '../../src/server/db/database.ts';
import { migrations } from '../../src/server/db/migrations/index.ts';
import type { AuditRow } from '../../src/server/db/tables/audit-log.table.ts';

// Backups of the whole database with `npm run results -- backup` and `restore`, end to end against
// the built server, on SQLite as on PostgreSQL: a copy taken while ballots come in, its check, and
// putting it back in place of a database, with its refusals and its audit entry.

type Server = Awaited<ReturnType<typeof startServer>>;

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'peervote-backups-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Runs `npm run results -- …args` on the database of `fresh`. */
function results(fresh: FreshDatabase, args: string[]) {
  return runResults(args, { SURVEYS_DIR: fresh.env.SURVEYS_DIR, DATA_DIR: fresh.dataDir, DATABASE_URL: fresh.databaseUrl });
}

/** Posts demo ballot `n`; answers the status and the body. */
async function post(server: Server, n: number): Promise<{ status: number; body: { ballot_id?: string; receipt?: string } }> {
  const response = await fetch(`${server.url}/api/survey?${new URLSearchParams(DEMO_QUERY)}`, {
    method: 'POST',
    body: toForm(demoBallot(n)),
    headers: { Origin: server.url },
  });
  return { status: response.status, body: await response.json() };
}

/** Posts demo ballots `from` … `to - 1`, one after another; answers their ids. */
async function postAll(server: Server, from: number, to: number): Promise<string[]> {
  const ids: string[] = [];
  for (let n = from; n < to; n++) {
    const { status, body } = await post(server, n);
    expect(status, JSON.stringify(body)).toBe(201);
    ids.push(body.ballot_id as string);
  }
  return ids;
}

/** What a database holds that a restore changes: its ballots' ids and its audit trail. Opened and closed each time: an open SQLite file is one a restore refuses. */
async function contents(fresh: FreshDatabase): Promise<{ ballots: string[]; audit: AuditRow[] }> {
  const { db } = createDatabase({
    databaseUrl: fresh.databaseUrl || undefined,
    sqliteFile: path.join(fresh.dataDir, 'peervote.sqlite'),
    sqliteSynchronous: 'NORMAL',
    pgPoolMax: 1,
  });
  try {
    const ballots = (await db.selectFrom('ballots').select('id').orderBy('id').execute()).map((row) => row.id);
    const audit = await db.selectFrom('audit_log').selectAll().where('project_id', '=', DEMO_QUERY.project_id).orderBy('seq').execute();
    return { ballots, audit };
  } finally {
    await db.destroy();
  }
}

/** A copy of `file` with some of its bytes replaced by `change`. */
function damaged(file: string, name: string, change: (bytes: Buffer) => void): string {
  const bytes = readFileSync(file);
  change(bytes);
  const copy = path.join(folder, name);
  writeFileSync(copy, bytes);
  return copy;
}

/** A copy of the first half of `file`, as a transfer cut short leaves it. */
function cutInHalf(file: string, name: string): string {
  const copy = path.join(folder, name);
  writeFileSync(copy, readFileSync(file).subarray(0, Math.floor(statSync(file).size / 2)));
  return copy;
}

/**
 * A copy of a backup whose rows of ballots are damaged: on SQLite the first page of the ballots
 * table garbled; in a dump, bytes inside the compressed block that holds the ballots' rows
 * (found by inflating each zlib stream in the file until one holds `ballotId`).
 */
function damagedBallots(file: string, kind: 'sqlite' | 'postgres', ballotId: string): string {
  if (kind === 'sqlite') {
    const db = new DatabaseSync(file, { readOnly: true });
    const { rootpage } = db.prepare("SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = 'ballots'").get() as { rootpage: number };
    const { page_size: pageSize } = db.prepare('PRAGMA page_size').get() as { page_size: number };
    db.close();
    return damaged(file, 'damaged.sqlite', (bytes) => bytes.fill(0xa5, (rootpage - 1) * pageSize, rootpage * pageSize));
  }
  return damaged(file, 'damaged.dump', (bytes) => {
    for (let at = 0; at < bytes.length - 2; at++) {
      if (bytes[at] !== 0x78 || bytes[at + 1] !== 0x9c) continue;
      let text: string;
      try {
        text = zlib.inflateSync(bytes.subarray(at, at + 65_536), { finishFlush: zlib.constants.Z_SYNC_FLUSH }).toString();
      } catch {
        continue;
      }
      if (!text.startsWith(ballotId) || !text.includes(DEMO_QUERY.project_id)) continue;
      for (let i = at + 10; i < at + 20; i++) bytes[i] ^= 0xff;
      return;
    }
    throw new Error('no compressed block of the dump holds the ballots');
  });
}

describe('backup', () => {
  let fresh: FreshDatabase;
  let server: Server;
  let ids: string[];
  let good: string;
  beforeAll(async () => {
    fresh = await freshDatabase();
    server = await startServer({ env: fresh.env });
    ids = await postAll(server, 0, 5);
    good = path.join(folder, fresh.databaseUrl ? 'good.dump' : 'good.sqlite');
    const { code, stderr } = await results(fresh, ['backup', '--out', good]);
    expect(code, stderr).toBe(0);
  });
  afterAll(async () => {
    await server?.stop();
    await fresh?.remove();
  });

  test('says on stderr what it wrote and counted, with no voter in it, and leaves the file to its owner', async () => {
    const { code, stdout, stderr } = await results(fresh, ['backup', '--out', path.join(folder, 'said')]);
    expect(code, stderr).toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^backup: wrote .*said \(\d+(\.\d)? (KB|MB)\) in \d+\.\d s, readable by its owner only\.$/m);
    expect(stderr).toMatch(/^ {2}ballots +5$/m);
    expect(stderr).toMatch(/^ {2}nominations +40$/m);
    expect(stderr).toContain(`the migrations: all ${Object.keys(migrations).length} of this version's, none unknown`);
    expect(stderr).not.toMatch(/@example\.org|Castellano|Evelyn/);
    expect(statSync(path.join(folder, 'said')).mode & 0o777).toBe(0o600);
  });

  test('refuses to replace a file unless --force, changing nothing', async () => {
    const before = readFileSync(good);
    const refused = await results(fresh, ['backup', '--out', good]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(`${good} exists already: name another file, or add --force to replace it.`);
    expect(readFileSync(good).equals(before)).toBe(true);
    const forced = await results(fresh, ['backup', '--out', good, '--force', '--quiet']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toBe('');
  });

  test('--verify passes a good copy, saying what it checked and counted', async () => {
    const { code, stdout, stderr } = await results(fresh, ['backup', '--verify', good]);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^ {2}ballots +5$/m);
    expect(stdout).toContain('Good: a whole backup that this version restores as it is.');
    if (fresh.databaseUrl) {
      expect(stdout).toContain("every table's rows, read through to the end of the file by pg_restore");
      // With DATABASE_URL reaching a server, a trial restore into a scratch database, dropped after.
      expect(stdout).toMatch(/restored for a trial into a scratch database on the PostgreSQL \d+ server of DATABASE_URL \(then dropped\): the same rows/);
    } else expect(stdout).toContain('every page and index (PRAGMA integrity_check): no fault');
  });

  test('--verify fails a copy cut short, or with damaged rows, or no backup at all, with one clear line', async () => {
    const cut = cutInHalf(good, `cut-${path.basename(good)}`);
    const halved = await results(fresh, ['backup', '--verify', cut]);
    expect(halved.code).toBe(1);
    expect(halved.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        fresh.databaseUrl
          ? /^cut-good\.dump: pg_restore .*cannot read (its table of contents|all its rows \(cut short or damaged\)): could not read from input file: end of file$/
          : /^cut-good\.sqlite: SQLite cannot read it: database disk image is malformed\.$/,
      ),
    ]);

    const broken = damagedBallots(good, fresh.databaseUrl ? 'postgres' : 'sqlite', ids[0]);
    const damagedRun = await results(fresh, ['backup', '--verify', broken]);
    expect(damagedRun.code).toBe(1);
    const lines = damagedRun.stderr.trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines)
      expect(line).toMatch(
        fresh.databaseUrl
          ? /^damaged\.dump: pg_restore cannot read all its rows .*could not uncompress data/
          : /^damaged\.sqlite: (PRAGMA integrity_check: |SQLite cannot read it: )/,
      );

    const notOne = path.join(folder, 'notes.txt');
    writeFileSync(notOne, 'not a backup\n');
    const neither = await results(fresh, ['backup', '--verify', notOne]);
    expect(neither.code).toBe(1);
    expect(neither.stderr.trim()).toBe(
      `${notOne} is neither an SQLite database nor a dump in pg_dump's custom format: it is no backup of the survey API's database.`,
    );
  });
});

describe('a backup taken while ballots are being posted', () => {
  test('holds every ballot acknowledged before it began, and restores into an empty database', async () => {
    const source = await freshDatabase();
    const copy = await freshDatabase();
    const server = await startServer({ env: source.env });
    try {
      // Four clients post ballots until the backup is over (at most MOST between them); each
      // acknowledgement (201 with a receipt) is kept with the moment it came.
      const MOST = 3000;
      const acknowledged: Array<{ id: string; at: number }> = [];
      const refused: string[] = [];
      let next = 0;
      let over = false;
      let reached: () => void = () => undefined;
      const twenty = new Promise<void>((resolve) => (reached = resolve));
      const client = async () => {
        while (!over && next < MOST) {
          const { status, body } = await post(server, next++);
          if (status === 201 && body.receipt) acknowledged.push({ id: body.ballot_id as string, at: performance.now() });
          else refused.push(`${status} ${JSON.stringify(body)}`);
          if (acknowledged.length >= 20) reached();
        }
        reached();
      };
      const clients = Array.from({ length: 4 }, client);
      await twenty;
      const file = path.join(folder, source.databaseUrl ? 'live.dump' : 'live.sqlite');
      const began = performance.now();
      const backup = await results(source, ['backup', '--out', file]);
      const ended = performance.now();
      over = true;
      await Promise.all(clients);
      expect(backup.code, backup.stderr).toBe(0);
      expect(refused).toEqual([]);
      const before = acknowledged.filter((ballot) => ballot.at < began).map((ballot) => ballot.id);
      // Ballots went on being taken while the copy was made.
      expect(acknowledged.filter((ballot) => ballot.at > began && ballot.at < ended).length).toBeGreaterThan(0);

      const restored = await results(copy, ['restore', file]);
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stdout).toMatch(/^Restored .* \d+ ballots\.$/m);
      const { ballots, audit } = await contents(copy);
      expect(before.filter((id) => !ballots.includes(id))).toEqual([]);
      expect(ballots.length).toBeGreaterThanOrEqual(before.length);
      expect(ballots.length).toBeLessThanOrEqual(acknowledged.length + 4);
      // The copy holds no ballot that was never acknowledged, and it is on the audit trail.
      expect(ballots.filter((id) => !acknowledged.some((ballot) => ballot.id === id))).toEqual([]);
      expect(audit.map((entry) => [entry.action, entry.subject])).toEqual([['restore', path.basename(file)]]);
    } finally {
      await server.stop();
      await source.remove();
      await copy.remove();
    }
  }, 120_000);
});

describe('restore', () => {
  let fresh: FreshDatabase;
  let server: Server | undefined;
  let kept: string[];
  let later: string[];
  let file: string;
  beforeAll(async () => {
    fresh = await freshDatabase();
    server = await startServer({ env: fresh.env });
    kept = await postAll(server, 100, 103);
    file = path.join(folder, fresh.databaseUrl ? 'three.dump' : 'three.sqlite');
    const { code, stderr } = await results(fresh, ['backup', '--out', file]);
    expect(code, stderr).toBe(0);
    later = await postAll(server, 103, 105);
  });
  afterAll(async () => {
    await server?.stop();
    await fresh?.remove();
  });

  test('while the API has the database open: SQLite refuses, changing nothing; PostgreSQL restores under it', async () => {
    const before = await contents(fresh);
    const run = await results(fresh, ['restore', file, '--force', '--why', 'restored under a running API', '--by', 'ops-lead']);
    if (!fresh.databaseUrl) {
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n').at(-1)).toBe(
        `${path.join(fresh.dataDir, 'peervote.sqlite')} is open in another process (a running API or command): stop it, restore, then start it again.`,
      );
      expect(await contents(fresh)).toEqual(before);
    } else {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/other connections? to the database \(a running API\?\) see the restored data from now on\./);
      expect((await contents(fresh)).ballots).toEqual([...kept].sort());
      // The API goes on, on the restored tables; the two later ballots are posted again for the tests after.
      later = await postAll(server as Server, 103, 105);
    }
  });

  test('refuses a database that holds ballots unless --force --why, changing nothing', async () => {
    await server?.stop();
    server = undefined;
    const before = await contents(fresh);
    expect(before.ballots).toEqual([...kept, ...later].sort());
    const refused = await results(fresh, ['restore', file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split('\n').at(-1)).toMatch(
      /holds 5 ballots, which the restore would replace with the backup's 3 ballots: add --force --why "…" to restore over them \(the audit trail keeps who, when and why\)\.$/,
    );
    expect(await contents(fresh)).toEqual(before);
    const noWhy = await results(fresh, ['restore', file, '--force']);
    expect(noWhy.code).toBe(1);
    expect(noWhy.stderr.trim()).toBe('--force replaces the ballots the database holds: say why with --why "…", for the audit trail.');
    expect(await contents(fresh)).toEqual(before);
  });

  test('refuses a broken backup, or a newer version’s, changing nothing', async () => {
    const before = await contents(fresh);
    const cut = await results(fresh, ['restore', cutInHalf(file, `cut-${path.basename(file)}`), '--force', '--why', 'a broken file']);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(/^cut-three\.(sqlite|dump): .*\nrestore: nothing changed\.\n$/m);
    expect(await contents(fresh)).toEqual(before);

    // A backup of a database a newer version migrated: one migration more than this version knows.
    const newer = path.join(folder, fresh.databaseUrl ? 'newer.dump' : 'newer.sqlite');
    const { db } = createDatabase({
      databaseUrl: fresh.databaseUrl || undefined,
      sqliteFile: path.join(fresh.dataDir, 'peervote.sqlite'),
      sqliteSynchronous: 'NORMAL',
      pgPoolMax: 1,
    });
    try {
      await sql`INSERT INTO kysely_migration (name, "timestamp") VALUES ('29990101000000-from-the-future', '2999-01-01T00:00:00.000Z')`.execute(db);
      await db.destroy();
      const taken = await results(fresh, ['backup', '--out', newer]);
      expect(taken.code, taken.stderr).toBe(0);
      expect(taken.stderr).toContain(
        'backup: the database was migrated by a newer version of Peervote: 1 migration unknown to this one (29990101000000-from-the-future)',
      );
    } finally {
      const { db: again } = createDatabase({
        databaseUrl: fresh.databaseUrl || undefined,
        sqliteFile: path.join(fresh.dataDir, 'peervote.sqlite'),
        sqliteSynchronous: 'NORMAL',
        pgPoolMax: 1,
      });
      await sql`DELETE FROM kysely_migration WHERE name = '29990101000000-from-the-future'`.execute(again);
      await again.destroy();
    }
    const refused = await results(fresh, ['restore', newer, '--force', '--why', 'a newer backup']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `${path.basename(newer)}: it was taken by a newer version of Peervote: 1 migration unknown to this one (29990101000000-from-the-future); restore it with that version.\nrestore: nothing changed.\n`,
    );
    expect(await contents(fresh)).toEqual(before);
  });

  test('with --force --why, puts the backup in place and records who, when, why and what on the audit trail', async () => {
    const before = await contents(fresh);
    const done = await results(fresh, ['restore', file, '--force', '--why', 'the disk failed; a restore drill', '--by', 'ops-lead']);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain(`Restored ${file} into `);
    expect(done.stdout).toContain(': 3 ballots, in place of 5 ballots.');
    expect(done.stdout).toMatch(/^Audit entry "restore" recorded in .*top-doctors-demo/m);
    const after = await contents(fresh);
    expect(after.ballots).toEqual([...kept].sort());
    // The backup's own trail, then the restore's entry (the entries made since the backup went with the database they were in).
    const entry = after.audit.at(-1) as AuditRow;
    expect(entry).toMatchObject({ actor: 'ops-lead', action: 'restore', subject: path.basename(file), reason: 'the disk failed; a restore drill' });
    expect(JSON.parse(entry.details as string)).toMatchObject({
      kind: fresh.databaseUrl ? 'postgres' : 'sqlite',
      migrations: Object.keys(migrations).length,
      migrations_applied_after: [],
      rows: { ballots: 3, nominations: 24 },
      replaced: { ballots: before.ballots.length, refused: 0 },
    });
    // Written as every audited command writes its entries: `audit` lists it.
    const audit = await results(fresh, ['audit', 'top-doctors-demo']);
    expect(audit.stdout).toContain(`ops-lead,restore,${path.basename(file)},the disk failed; a restore drill,`);
    // The API runs on the restored database, and takes ballots again.
    server = await startServer({ env: fresh.env });
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect((await post(server, 200)).status).toBe(201);
  });
});
