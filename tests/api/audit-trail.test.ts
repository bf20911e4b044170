import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Migrator, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { databaseMigratedTo, startApi, type Api, type Fields } from './helpers.ts';
import { runResults } from '../support/results-cli.ts';
import { migrateToLatest } from '../../src/server/db/database.ts';
import { migrations } from '../../src/server/db/migrations/index.ts';
import type { Database } from '../../src/server/db/schema.ts';
import type { AuditRow } from '../../src/server/db/tables/audit-log.table.ts';
import { appendAudit, auditTrail, verifyAuditTrail } from '../../src/server/db/audit.repository.ts';
import { entryHash, sessionHash } from '../../src/server/db/audit-chain.ts';
import { uuidv7 } from '../../src/server/ids.ts';

// The audit trail as a hash chain, on this API's database (SQLite or PostgreSQL): the operator's
// commands write it, `audit --verify` checks it and names what was changed, removed or moved,
// appends made at once by several processes stay one line, and the migration chains a trail
// written before the chain.

const ROOT = path.resolve(import.meta.dirname, '../..');
const QUERY = { project_id: 'peer-check', project_type: 'form' };

let api: Api;
let surveys: string;
const ballots: string[] = [];

/** Runs `npm run results -- …args` on this API's database and this file's copy of the surveys. */
function results(args: string[]) {
  return runResults(args, { SURVEYS_DIR: surveys, DATA_DIR: api.dataDir, DATABASE_URL: api.databaseUrl });
}

/** peer-check's trail as stored, oldest first. */
const trail = () => auditTrail(api.db(), 'peer-check');

/** An entry as `audit --verify` names it. */
const named = (entry: AuditRow) => `entry ${entry.seq} (id ${entry.id}, at ${entry.at})`;

/** Runs `change` on the stored trail, then `audit --verify` with `args`; puts the trail back as it was, whatever happens. */
async function verifyAfter(change: (db: Kysely<Database>, entries: AuditRow[]) => Promise<unknown>, args: string[] = []) {
  const before = await trail();
  try {
    await change(api.db(), before);
    return await results(['audit', 'peer-check', '--verify', ...args]);
  } finally {
    await api.db().deleteFrom('audit_log').where('project_id', '=', 'peer-check').execute();
    await api.db().insertInto('audit_log').values(before).execute();
  }
}

/** Sets one entry's columns. */
const update = (db: Kysely<Database>, entry: AuditRow, values: Partial<AuditRow>) =>
  db.updateTable('audit_log').set(values).where('id', '=', entry.id).execute();

const ballot = (first: string): Fields => [
  ['name-first', first],
  ['name-last', 'Voter'],
  ['nominations[Medicine][Cardiology][1]', 'c-2'],
  ['affirm', 'on'],
];

beforeAll(async () => {
  // A copy of the surveys: the publication at the end writes into peer-check's folder.
  surveys = mkdtempSync(path.join(tmpdir(), 'peervote-audit-'));
  cpSync(inject('surveysDir'), surveys, { recursive: true });
  api = await startApi({ SURVEYS_DIR: surveys });
  for (const first of ['Ada', 'Ben', 'Cy']) {
    const answer = await api.post(ballot(first), { query: QUERY });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    ballots.push(answer.body.ballot_id);
  }
});
afterAll(async () => {
  await api?.stop();
  if (surveys) rmSync(surveys, { recursive: true, force: true });
});

describe('a trail written by the commands', () => {
  test('each command appends an entry through the command line, chained to the one before; audit --verify passes', async () => {
    const acts = [
      ['exclude', ballots[0], '--why', 'one of a burst', '--by', 'editor'],
      ['include', ballots[0], '--why', 'a colleague vouched for the voter', '--by', 'editor'],
      ['exclude', ballots[1], '--why', 'a second ballot by one voter', '--by', 'Ann Lee'],
      ['exclude', ballots[2], '--why', 'a test ballot'],
      ['include', ballots[2], '--why', 'it was real after all', '--by', 'auditor'],
    ];
    for (const [command, ...args] of acts) {
      const done = await results([command, 'peer-check', ...args]);
      expect(done.code, done.stderr).toBe(0);
    }
    const entries = await trail();
    expect(entries.map((entry) => [entry.seq, entry.via, entry.actor, entry.action, entry.subject])).toEqual([
      [1, 'command line', 'editor', 'exclude', ballots[0]],
      [2, 'command line', 'editor', 'include', ballots[0]],
      [3, 'command line', 'Ann Lee', 'exclude', ballots[1]],
      // No --by: the operating system's user.
      [4, 'command line', entries[3].actor, 'exclude', ballots[2]],
      [5, 'command line', 'auditor', 'include', ballots[2]],
    ]);
    expect(entries[3].actor).not.toBe('');
    expect(entries.map((entry) => [entry.actor_email, entry.role, entry.session])).toEqual(entries.map(() => [null, null, null]));
    expect(entries[0].prev_hash).toBe('0'.repeat(64));
    for (const [i, entry] of entries.entries()) {
      expect(entry.hash).toBe(entryHash(entry));
      if (i) expect(entry.prev_hash).toBe(entries[i - 1].hash);
    }
    const check = await results(['audit', 'peer-check', '--verify']);
    expect(check).toEqual({ code: 0, stdout: `verified: 5 entries, head ${entries[4].hash}\n`, stderr: '' });
  }, 120_000); // six runs of the command line, each starting Node

  test('audit lists it: a table newest first, CSV and JSON Lines oldest first with every hashed field, narrowed by --action and --actor', async () => {
    const entries = await trail();
    const table = (await results(['audit', 'peer-check', '--format', 'table'])).stdout.trimEnd().split('\n');
    expect(table[0]).toMatch(/^#\s+at\s+via\s+actor\s+role\s+action\s+subject\s+reason$/);
    expect(table.slice(1).map((line) => line.split(/\s{2,}/))).toEqual(
      entries.toReversed().map((entry) => [String(entry.seq), entry.at, 'command line', entry.actor, entry.action, entry.subject, entry.reason]),
    );

    const csv = (await results(['audit', 'peer-check'])).stdout.trimEnd().split('\r\n');
    expect(csv[0]).toBe('id,at,actor,action,subject,reason,details,via,actor_email,role,session,project_id,seq,prev_hash,hash');
    expect(csv.slice(1).map((line) => line.split(',')[0])).toEqual(entries.map((entry) => entry.id));

    // Anyone recomputes the hashes from the JSON lines with a few lines of their own.
    const lines = (await results(['audit', 'peer-check', '--format', 'jsonl'])).stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const fields = ['seq', 'id', 'project_id', 'at', 'actor', 'actor_email', 'action', 'subject', 'reason', 'details', 'via', 'role', 'session', 'prev_hash'];
    let previous = '0'.repeat(64);
    for (const line of lines) {
      expect(line.prev_hash).toBe(previous);
      previous = createHash('sha256')
        .update(JSON.stringify(fields.map((field) => line[field])))
        .digest('hex');
      expect(line.hash).toBe(previous);
    }
    expect(lines).toHaveLength(5);

    const byAction = (await results(['audit', 'peer-check', '--format', 'jsonl', '--action', 'include'])).stdout.trimEnd().split('\n');
    expect(byAction.map((line) => JSON.parse(line).seq)).toEqual([2, 5]);
    const byActor = (await results(['audit', 'peer-check', '--format', 'table', '--actor', 'editor'])).stdout.trimEnd().split('\n');
    expect(byActor.slice(1).map((line) => line.split(/\s+/)[0])).toEqual(['2', '1']);
    const none = await results(['audit', 'peer-check', '--format', 'table', '--action', 'excluded']);
    expect(none.stdout).toBe(
      `No entry of peer-check's audit trail matches --action "excluded"; its actions are exclude, include; its actors editor, Ann Lee, ${entries[3].actor}, auditor.\n`,
    );
  }, 60_000);

  test.each([
    [['--format', 'xml'], '--format must be table, csv or jsonl, got "xml".'],
    [['--verify', '--format', 'table'], 'audit --verify checks the whole trail and lists nothing: leave out --format.'],
    [['--head', 'ab'.repeat(8)], '--head is a hash to check the trail against: give it with --verify.'],
    [['--verify', '--head', 'not-a-hash'], '--head must be an entry\'s hash, 16 to 64 hex digits (audit --verify prints the head), got "not-a-hash".'],
  ])('audit %j: one line, exit 1', async (args, message) => {
    expect(await results(['audit', 'peer-check', ...args])).toEqual({ code: 1, stdout: '', stderr: `${message}\n` });
  });

  test("an act through the console keeps the operator's address, role and the session's hash, never the session", async () => {
    const db = api.db();
    const row = await appendAudit(db, {
      projectId: 'peer-check',
      actor: 'Ann Lee',
      actorEmail: 'ann@peer.example',
      role: 'editor',
      via: 'console',
      sessionId: 'the-session-id',
      action: 'exclude',
      subject: ballots[1],
      reason: 'from the console',
    });
    try {
      expect(row).toMatchObject({ seq: 6, via: 'console', actor_email: 'ann@peer.example', role: 'editor', session: sessionHash('the-session-id') });
      expect(JSON.stringify(await trail())).not.toContain('the-session-id');
      const table = (await results(['audit', 'peer-check', '--format', 'table', '--actor', 'ann@peer.example'])).stdout.split('\n');
      expect(table[1].split(/\s{2,}/)).toEqual(['6', row.at, 'console', 'Ann Lee <ann@peer.example>', 'editor', 'exclude', ballots[1], 'from the console']);
      expect((await results(['audit', 'peer-check', '--verify'])).stdout).toBe(`verified: 6 entries, head ${row.hash}\n`);
    } finally {
      await db.deleteFrom('audit_log').where('id', '=', row.id).execute();
    }
  }, 60_000);
});

describe('audit --verify names what was done to the trail', () => {
  test('an entry changed (its reason): that entry', async () => {
    const entries = await trail();
    const check = await verifyAfter((db) => update(db, entries[2], { reason: 'a kinder reason' }));
    expect(check).toEqual({ code: 1, stdout: '', stderr: `not verified: ${named(entries[2])} was changed: its hash does not match its content.\n` });
  });

  test('an entry removed in the middle: its number, and the entry after the gap', async () => {
    const entries = await trail();
    const check = await verifyAfter((db) => db.deleteFrom('audit_log').where('id', '=', entries[2].id).execute());
    expect(check.code).toBe(1);
    expect(check.stderr).toBe(`not verified: entry 3 was removed: ${named(entries[3])} follows entry 2, and its prev_hash does not match entry 2.\n`);
  });

  test('the first entry removed: the trail no longer begins at the genesis value', async () => {
    const entries = await trail();
    const check = await verifyAfter((db) => db.deleteFrom('audit_log').where('id', '=', entries[0].id).execute());
    expect(check.stderr).toBe(
      `not verified: entry 1 was removed: the trail begins at ${named(entries[1])}, and its prev_hash does not match the genesis value.\n`,
    );
    expect(check.code).toBe(1);
  });

  test('the newest entry removed: the chain cannot show it, the head noted before (--head) does', async () => {
    const entries = await trail();
    const head = entries[4].hash!;
    expect((await results(['audit', 'peer-check', '--verify', '--head', head.slice(0, 16)])).stdout).toBe(
      `verified: 5 entries, head ${head}; the head given (--head) is entry 5\n`,
    );
    const removed = (db: Kysely<Database>) => db.deleteFrom('audit_log').where('id', '=', entries[4].id).execute();
    expect(await verifyAfter(removed)).toEqual({ code: 0, stdout: `verified: 4 entries, head ${entries[3].hash}\n`, stderr: '' });
    expect(await verifyAfter(removed, ['--head', head])).toEqual({
      code: 1,
      stdout: '',
      stderr: `not verified: the head given (--head) names an entry with hash ${head.slice(0, 16)}…, which is not in the trail: it was removed, or it or an entry before it was changed and the chain written again after it.\n`,
    });
  }, 60_000);

  test('two entries swapped in the order: the first of them', async () => {
    const entries = await trail();
    const check = await verifyAfter(async (db) => {
      await update(db, entries[1], { seq: -2 });
      await update(db, entries[2], { seq: 2 });
      await update(db, entries[1], { seq: 3 });
    });
    expect(check).toEqual({
      code: 1,
      stdout: '',
      stderr: `not verified: entry 2 (id ${entries[2].id}, at ${entries[2].at}) was removed or reordered: its prev_hash does not match entry 1.\n`,
    });
  });

  test("two entries' ids and times swapped: the first of them no longer holds what it was hashed with", async () => {
    const entries = await trail();
    const check = await verifyAfter(async (db) => {
      await update(db, entries[1], { id: 'swapping' });
      await update(db, entries[2], { id: entries[1].id, at: entries[1].at });
      await db.updateTable('audit_log').set({ id: entries[2].id, at: entries[2].at }).where('id', '=', 'swapping').execute();
    });
    expect(check.stderr).toBe(`not verified: entry 2 (id ${entries[2].id}, at ${entries[2].at}) was changed: its hash does not match its content.\n`);
    expect(check.code).toBe(1);
  });

  test('a change with the chain written again after it checks alone: only a head noted before shows it', async () => {
    const entries = await trail();
    const rewrite = async (db: Kysely<Database>) => {
      let previous = entries[1].hash;
      for (const entry of entries.slice(2)) {
        const fields = { ...entry, reason: entry.seq === 3 ? 'rewritten' : entry.reason, prev_hash: previous };
        previous = entryHash(fields);
        await update(db, entry, { reason: fields.reason, prev_hash: fields.prev_hash, hash: previous });
      }
    };
    expect((await verifyAfter(rewrite)).code).toBe(0);
    const check = await verifyAfter(rewrite, ['--head', entries[4].hash!]);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(`the head given (--head) names an entry with hash ${entries[4].hash!.slice(0, 16)}…, which is not in the trail`);
  }, 60_000);
});

describe('appends at once', () => {
  test('several processes appending to one survey at once leave one line', async () => {
    const processes = 4;
    const each = 8;
    const env = { ...process.env, DATABASE_URL: api.databaseUrl, SQLITE_FILE: path.join(api.dataDir, 'peervote.sqlite') };
    const children = Array.from({ length: processes }, (_, i) =>
      spawn(process.execPath, ['tests/support/audit-appender.ts', 'race-check', String(each), `appender ${i + 1}`], { cwd: ROOT, env }),
    );
    const errors = children.map((child) => {
      let text = '';
      child.stderr.on('data', (chunk) => (text += chunk));
      return () => text;
    });
    const exited = children.map((child) => once(child, 'exit'));
    // Every process has its connection open before any appends.
    await Promise.all(children.map((child) => once(createInterface({ input: child.stdout }), 'line')));
    for (const child of children) child.stdin.end('go\n');
    const codes = (await Promise.all(exited)).map(([code]) => code);
    expect(codes, errors.map((text) => text()).join('\n')).toEqual(children.map(() => 0));

    const entries = await auditTrail(api.db(), 'race-check');
    expect(entries.map((entry) => entry.seq)).toEqual(Array.from({ length: processes * each }, (_, i) => i + 1));
    for (let i = 1; i <= processes; i++) expect(entries.filter((entry) => entry.actor === `appender ${i}`)).toHaveLength(each);
    expect(await verifyAuditTrail(api.db(), 'race-check')).toMatchObject({ ok: true, entries: processes * each, head: entries.at(-1)!.hash });
  }, 60_000);
});

describe('the migration that chains a trail written before the chain', () => {
  const BEFORE = '20270114000000-receipt-due';
  let db: Kysely<Database>;
  let remove: () => Promise<void>;

  beforeAll(async () => {
    ({ db, remove } = await databaseMigratedTo(BEFORE));
  });
  afterAll(() => remove?.());

  test('numbers and chains each survey’s entries in id order; the trail verifies and goes on from there', async () => {
    const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 10, minute));
    // Written in another order than their ids', as rows of two surveys and a recipient's unsubscribe.
    const rows = [
      { project_id: 'peer-check', minute: 3, actor: 'editor', action: 'include', reason: 'vouched for', details: '{"ballot_id":"b-1"}' },
      { project_id: 'peer-check', minute: 1, actor: 'editor', action: 'exclude', reason: 'one of a burst', details: null },
      { project_id: 'other', minute: 2, actor: 'auditor', action: 'admit', reason: 'late by a minute', details: null },
      { project_id: 'peer-check', minute: 2, actor: 'recipient', action: 'unsubscribe', reason: null, details: '{"via":"one-click"}' },
    ].map(({ minute, ...row }) => ({ id: uuidv7(at(minute).getTime()), at: at(minute).toISOString(), subject: null, ...row }));
    await (db as Kysely<any>).insertInto('audit_log').values(rows).execute();

    const done = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
    expect(done.error).toBeUndefined();
    const chained = await auditTrail(db, 'peer-check');
    expect(chained.map((entry) => [entry.seq, entry.action, entry.via])).toEqual([
      [1, 'exclude', 'command line'],
      [2, 'unsubscribe', 'mail link'],
      [3, 'include', 'command line'],
    ]);
    expect(chained.map((entry) => entry.id)).toEqual(chained.map((entry) => entry.id).sort());
    expect(await verifyAuditTrail(db, 'peer-check')).toMatchObject({ ok: true, entries: 3, head: chained[2].hash });
    expect(await verifyAuditTrail(db, 'other')).toMatchObject({ ok: true, entries: 1 });

    const next = await appendAudit(db, { projectId: 'peer-check', actor: 'editor', action: 'exclude', subject: 'b-2', reason: 'after the migration' });
    expect(next).toMatchObject({ seq: 4, prev_hash: chained[2].hash, via: 'command line' });
    expect(await verifyAuditTrail(db, 'peer-check')).toMatchObject({ ok: true, entries: 4, head: next.hash });
    // One number per place: a second entry 4 is refused by the database itself.
    await expect(
      db
        .insertInto('audit_log')
        .values({ ...next, id: uuidv7() })
        .execute(),
    ).rejects.toThrow();
    // And migrateToLatest, as the API and the command line call it, finds nothing left to do.
    await migrateToLatest(db);
  });
});

describe('a publication anchors the head', () => {
  test("results.json names the newest entry and its hash; audit --verify shows that entry's removal", async () => {
    const published = await results(['publish', 'peer-check', '--force', '--why', 'a preview for the editors', '--by', 'editor', '--quiet']);
    expect(published.code, published.stderr).toBe(0);
    const entries = await trail();
    const last = entries.at(-1)!;
    expect(last).toMatchObject({ seq: 6, action: 'unseal', subject: 'publish' });
    const file = JSON.parse(readFileSync(path.join(surveys, 'peer-check', 'results', 'results.json'), 'utf8'));
    expect(file).toMatchObject({ audit_entry: last.id, audit_head: last.hash });
    const source = `the published results (${path.join('peer-check', 'results', 'results.json')})`;
    expect((await results(['audit', 'peer-check', '--verify'])).stdout).toBe(`verified: 6 entries, head ${last.hash}; ${source} is entry 6\n`);
    const check = await verifyAfter((db) => db.deleteFrom('audit_log').where('id', '=', last.id).execute());
    expect(check).toEqual({
      code: 1,
      stdout: '',
      stderr: `not verified: ${source} names entry ${last.id} with hash ${last.hash!.slice(0, 16)}…, which is not in the trail: it was removed, or it or an entry before it was changed and the chain written again after it.\n`,
    });
  }, 60_000);
});
