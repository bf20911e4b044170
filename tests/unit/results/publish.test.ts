import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../../../src/server/db/schema.ts';
import { publishResults } from '../../../src/results/publish/publish.ts';
import { auditLedger } from '../../../src/results/publish/ledger-audit.ts';
import { openSeal } from '../../../src/results/publish/seal.ts';
import { LedgerChain, receiptHash, sha256 } from '../../../src/results/publish/ledger.ts';
import { normalizeReceipt } from '../../../src/survey/published/receipt-code.ts';
import { standingOf, type LedgerLine, type PublishedResults } from '../../../src/survey/published/published-results.ts';
import { auditTrail } from '../../../src/server/db/audit.repository.ts';
import { insertExclusion } from '../../../src/results/tally/tally.repository.ts';
import { peerCheck, scratchDatabase, storeBallots, storePeerCheck } from '../../support/results-db.ts';
import { PEER_CHECK_BALLOTS } from '../../support/peer-check-ballots.ts';
import { normalizeReceipt as verifyNormalize, verifyFolder } from '../../../src/results/publish/verify.mjs';

const { survey, nominees, prepopulation } = peerCheck();
/** The `prev` of a ledger's first line. */
const GENESIS = '0'.repeat(64);
/** Receipt codes set on the peer-check ballots, so that every publication of them is the same. */
const CODES = PEER_CHECK_BALLOTS.map((_, i) => `7K3MQ9TD2X${String(i).padStart(2, '0')}`);
const AT = new Date('2030-02-01T12:00:00Z');
let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let db: Kysely<Database>;
let ids: string[];
let dir: string;

beforeAll(async () => {
  scratch = await scratchDatabase();
  db = scratch.db;
  ids = await storePeerCheck(db);
  for (const [i, id] of ids.entries()) await db.updateTable('ballots').set({ receipt: CODES[i] }).where('id', '=', id).execute();
  dir = mkdtempSync(path.join(tmpdir(), 'peervote-publish-'));
});
afterAll(async () => {
  await scratch?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const publish = (folder: string, at = AT) => publishResults(db, { survey, nominees, prepopulation, folder: path.join(dir, folder), at });
const read = (folder: string, file: string) => readFileSync(path.join(dir, folder, file), 'utf8');
const ledgerOf = (folder: string) =>
  read(folder, 'ledger.jsonl')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as LedgerLine);

/** A copy of the published folder with one file changed by `change`: what verify.mjs must catch. */
function tampered(name: string, file: string, change: (text: string) => string): string {
  const copy = path.join(dir, name);
  cpSync(path.join(dir, 'first'), copy, { recursive: true });
  writeFileSync(path.join(copy, file), change(readFileSync(path.join(copy, file), 'utf8')));
  return copy;
}

/** Runs the published verify.mjs in `folder` as a reader would; answers its status and output. */
function runVerify(folder: string, ...args: string[]): { status: number; out: string } {
  try {
    return { status: 0, out: execFileSync(process.execPath, ['verify.mjs', ...args], { cwd: folder, encoding: 'utf8' }) };
  } catch (error) {
    const failed = error as { status: number; stdout: string };
    return { status: failed.status, out: failed.stdout };
  }
}

describe('publish', () => {
  test('writes results.json, ledger.jsonl, methodology.md and verify.mjs; the winners are the tally’s', async () => {
    const results = await publish('first');
    expect(readdirSync(path.join(dir, 'first')).sort()).toEqual(['ledger.jsonl', 'methodology.md', 'results.json', 'verify.mjs']);
    expect(JSON.parse(read('first', 'results.json'))).toEqual(results);
    expect(results.ballots).toEqual({ received: 9, counted: 6, replaced: 0 });
    expect(results.votes).toEqual({ counted: 13, not_counted: 6 });
    expect(results.exclusions).toMatchObject({ demo_ballot: 1, duplicate_ballot: 2, repeat_on_ballot: 1, self_vote: 2 });
    expect(results.published_at).toBe(AT.toISOString());
    const cardiology = results.subcategories.find((sub) => sub.subcategory === 'Cardiology')!;
    expect(cardiology.nominees[0]).toMatchObject({ nominee_id: 'c-2', rank: 1 });
    expect(read('first', 'methodology.md')).toMatch(/^# How the votes of Peer Check are counted/);
  });

  test('the ledger: a line per ballot in the order received, chained, the last line’s hash the head', () => {
    const lines = ledgerOf('first');
    const texts = read('first', 'ledger.jsonl').trimEnd().split('\n');
    expect(lines).toHaveLength(9);
    expect(lines[0].prev).toBe(GENESIS);
    for (let i = 1; i < lines.length; i++) expect(lines[i].prev).toBe(sha256(texts[i - 1]));
    const results = JSON.parse(read('first', 'results.json')) as PublishedResults;
    expect(results.head).toBe(sha256(texts[8]));
    expect(lines.map((line) => line.receipt)).toEqual(CODES.map((code) => receiptHash(results.receipt_salt, code)));
    // Ballot 3 names herself beside too few outsiders: her self-vote is left out by the methodology, her other vote counts.
    expect(standingOf(lines[2])).toBe('partly_counted');
    expect(lines[2].votes.find((vote) => !vote.counted)).toMatchObject({ nominee_id: 'c-1', not_counted: 'methodology' });
    expect(standingOf(lines[0])).toBe('counted');
    expect(standingOf(lines[5])).toBe('not_counted');
    expect(lines[5].votes.every((vote) => vote.not_counted === 'ballot')).toBe(true);
  });

  test('the ledger names no voter: no ballot id, time, name, email, licence, practice or receipt code', () => {
    const ledger = read('first', 'ledger.jsonl');
    const personal = PEER_CHECK_BALLOTS.flatMap((ballot) => [ballot.at, ballot.secret, ...Object.values(ballot.answers ?? {})]).filter(
      (value): value is string => Boolean(value),
    );
    for (const value of [...ids, ...CODES, ...personal]) expect(ledger, value).not.toContain(value);
    expect(Object.keys(JSON.parse(ledger.split('\n')[0]))).toEqual(['n', 'prev', 'receipt', 'status', 'votes']);
  });

  test('published again from the same data: the same folder to the byte, published_at aside', async () => {
    await publish('again', new Date('2031-01-01T00:00:00Z'));
    for (const file of ['ledger.jsonl', 'methodology.md', 'verify.mjs']) expect(read('again', file), file).toBe(read('first', file));
    expect(read('again', 'results.json').replace('2031-01-01T00:00:00.000Z', AT.toISOString())).toBe(read('first', 'results.json'));
    await publish('again');
    expect(read('again', 'results.json')).toBe(read('first', 'results.json'));
  });
});

describe('verify.mjs', () => {
  test('passes on the published folder, counting ballots and votes, not points', () => {
    const { status, out } = runVerify(path.join(dir, 'first'));
    const results = JSON.parse(read('first', 'results.json')) as PublishedResults;
    expect(out).toBe(`verified: 9 ballots, 13 votes counted, totals match, head ${results.head}\n`);
    expect(status).toBe(0);
  });

  test('finds a voter’s own line by their receipt code, typed as they like', () => {
    const { status, out } = runVerify(path.join(dir, 'first'), '--receipt', '7k3m-q9td-2xo2');
    expect(status).toBe(0);
    expect(out).toContain('Line 3: 1 of 2 votes counted; not counted: Cardiology c-1 (methodology).');
  });

  test.each([
    [
      'a changed vote',
      'ledger.jsonl',
      (text: string) => text.replace('"nominee_id":"c-3"', '"nominee_id":"c-4"'),
      'ledger.jsonl line 1: changed since it was chained (line 2 holds the hash of another line 1)',
    ],
    ['a removed line', 'ledger.jsonl', (text: string) => text.split('\n').toSpliced(4, 1).join('\n'), 'ledger.jsonl line 5: numbered 6, expected 5'],
    [
      'a reordered line',
      'ledger.jsonl',
      (text: string) => {
        const lines = text.split('\n');
        [lines[3], lines[4]] = [lines[4], lines[3]];
        return lines.join('\n');
      },
      'ledger.jsonl line 4: numbered 5, expected 4',
    ],
    [
      'a changed total',
      'results.json',
      (text: string) =>
        text.replace(/("nominee_id": "c-2",\n\s+"name": "[^"]+",\n\s+"rank": 1,\n\s+"counted": )(\d+)/, (_, head, n) => `${head}${Number(n) + 1}`),
      'results.json Cardiology c-2: published 6, ledger 5',
    ],
  ])('fails on %s, naming it', (name, file, change, message) => {
    const folder = tampered(name.replaceAll(' ', '-'), file, change);
    expect(read(name.replaceAll(' ', '-'), file)).not.toBe(read('first', file));
    const { status, out } = runVerify(folder);
    expect(out).toContain(message);
    expect(status).toBe(1);
  });

  test('reads receipt codes by the same rule as the receipt check', () => {
    for (const typed of ['7k3m-q9td-2xhb', '7K3M Q9TD 2XHB', 'OIL0-Q9TD-2XHB', '7K3M-Q9TD-2XH', 'UUUU-Q9TD-2XHB', '', '7K3M--Q9TD--2XHB-', 'ilo1ILO1ilo1']) {
      expect(verifyNormalize(typed), typed).toBe(normalizeReceipt(typed));
    }
  });

  test('is the folder’s own copy: it verifies a folder as a module too', async () => {
    await expect(verifyFolder(path.join(dir, 'first'))).resolves.toMatchObject({ ballots: 9, votes: 13 });
  });
});

describe('the chain', () => {
  test('each line hashes the line before; an empty ledger’s head is the genesis', () => {
    const chain = new LedgerChain();
    expect(chain.head).toBe(GENESIS);
    const first = chain.next({ receipt: 'a', status: 'current', votes: [] });
    expect(JSON.parse(first)).toEqual({ n: 1, prev: GENESIS, receipt: 'a', status: 'current', votes: [] });
    const second = chain.next({ receipt: 'b', status: 'replaced', votes: [] });
    expect(JSON.parse(second).prev).toBe(sha256(first));
    expect(chain.head).toBe(sha256(second));
  });
});

describe('results verify: the published ledger against the database', () => {
  test('agrees when nothing changed', async () => {
    const audit = await auditLedger(db, { survey, nominees, prepopulation, folder: path.join(dir, 'first') });
    expect(audit).toEqual({ changes: [], published: 9, rebuilt: 9, configChanged: false });
  });

  test('names each ballot excluded, changed or stored since publication by its ledger line', async () => {
    await insertExclusion(db, {
      ballot_id: ids[0],
      project_id: 'peer-check',
      reason: 'test',
      audit_id: 'a',
      excluded_by: 'tester',
      excluded_at: AT.toISOString(),
    });
    await storeBallots(db, [{ at: '2030-01-02T09:00:00Z', votes: { Cardiology: ['c-3'] } }]);
    const audit = await auditLedger(db, { survey, nominees, prepopulation, folder: path.join(dir, 'first') });
    expect(audit.changes.map((change) => [change.line, change.kind])).toEqual([
      [1, 'excluded'],
      // Ballots 2 and 7 repeated ballot 1: with it out of the count, they stand.
      [2, 'changed'],
      [7, 'changed'],
      [10, 'stored'],
    ]);
  });
});

describe('sealed until the close', () => {
  const sealed = { ...survey, config: { ...survey.config, expiration_date: '2099-12-31', results: { sealed: true } } };

  test('refuses before the close, naming it; opens after it', async () => {
    await expect(openSeal(db, sealed, { command: 'tally', unseal: false, why: undefined, actor: 'op' })).rejects.toThrow(
      'peer-check is sealed until its close, 2099-12-31: tally shows no standings before then.',
    );
    await expect(openSeal(db, sealed, { command: 'tally', unseal: false, why: undefined, actor: 'op', now: new Date('2100-01-01') })).resolves.toBe(undefined);
  });

  test('--unseal needs a why, and records who, when, why and which command first', async () => {
    await expect(openSeal(db, sealed, { command: 'export', unseal: true, why: ' ', actor: 'op' })).rejects.toThrow('say why with --why');
    await openSeal(db, sealed, { command: 'export', unseal: true, why: 'the board asked for an interim count', actor: 'op' });
    const entry = (await auditTrail(db, 'peer-check')).at(-1)!;
    expect(entry).toMatchObject({ action: 'unseal', actor: 'op', subject: 'export', reason: 'the board asked for an interim count' });
  });
});

describe('a replaced ballot', () => {
  test('has its line, its votes none counted, and the published counts leave it out; verify.mjs agrees', async () => {
    const own = await scratchDatabase();
    try {
      const stored = await storePeerCheck(own.db, [{ at: '2030-01-01T10:00:00Z', votes: { Cardiology: ['c-3'] } }]);
      for (const [i, id] of stored.entries())
        await own.db
          .updateTable('ballots')
          .set({ receipt: CODES[i] ?? '7K3MQ9TD2X99' })
          .where('id', '=', id)
          .execute();
      // Ballot 1 (Carl) is replaced by the ballot after the nine.
      await own.db.updateTable('ballots').set({ replaced_by: stored[9], replaced_at: '2030-01-01T10:00:00.000Z' }).where('id', '=', stored[0]).execute();
      const folder = path.join(dir, 'replaced');
      const results = await publishResults(own.db, { survey, nominees, prepopulation, folder, at: AT });
      const lines = readFileSync(path.join(folder, 'ledger.jsonl'), 'utf8')
        .trimEnd()
        .split('\n')
        .map((text) => JSON.parse(text) as LedgerLine);
      expect(lines).toHaveLength(10);
      expect(lines[0].status).toBe('replaced');
      expect(standingOf(lines[0])).toBe('replaced');
      expect(lines[0].votes.map((vote) => [vote.nominee_id, vote.counted, vote.not_counted])).toEqual([
        ['c-2', false, 'replaced'],
        ['c-3', false, 'replaced'],
        ['d-1', false, 'replaced'],
      ]);
      expect(results.ballots).toMatchObject({ received: 10, replaced: 1 });
      await expect(verifyFolder(folder)).resolves.toMatchObject({ ballots: 10 });
    } finally {
      await own.close();
    }
  });
});
