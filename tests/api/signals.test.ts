import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { rowCounts, startApi, type Api, type Fields } from './helpers.ts';

// Fraud signals end to end: the API keeps salted hashes of each ballot's client, `results
// signals` finds the planted burst, and `exclude` / `include` change the tally with an audit entry.

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const QUERY = { project_id: 'peer-check', project_type: 'form' };
const STUFFER = '203.0.113.77';
const BOT = 'StuffingBot/1.0 (+scripted)';

let api: Api;
let out: string;
const burst: string[] = [];
const honest: string[] = [];

async function results(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/results.mjs', ...args], {
      cwd: ROOT,
      env: { ...process.env, SURVEYS_DIR: inject('surveysDir'), DATA_DIR: api.dataDir, DATABASE_URL: api.databaseUrl },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const ballot = (first: string, nominee: string): Fields => [
  ['name-first', first],
  ['name-last', 'Voter'],
  ['nominations[Medicine][Cardiology][1]', nominee],
  ['affirm', 'on'],
];

beforeAll(async () => {
  // Behind one proxy: the client's address is the last X-Forwarded-For entry, as in production.
  api = await startApi({ TRUST_PROXY: '1', SIGNALS_SECRET: '' });
  out = mkdtempSync(path.join(tmpdir(), 'peervote-signals-out-'));
  for (let i = 0; i < 6; i++) {
    const at = new Date(Date.parse('2030-02-01T10:00:00Z') + i * 5_000).toISOString();
    const answer = await api.post(ballot(`Made${i}`, 'c-5'), {
      query: QUERY,
      headers: { 'X-Peervote-Now': at, 'X-Forwarded-For': `10.0.0.9, ${STUFFER}`, 'User-Agent': BOT },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    burst.push(answer.body.ballot_id);
  }
  for (let i = 0; i < 3; i++) {
    const at = new Date(Date.parse('2030-02-02T10:00:00Z') + i * 86_400_000).toISOString();
    const answer = await api.post(ballot(`Real${i}`, 'c-2'), {
      query: QUERY,
      headers: { 'X-Peervote-Now': at, 'X-Forwarded-For': `198.51.100.${i + 1}`, 'User-Agent': `Browser/${i}` },
    });
    expect(answer.status).toBe(201);
    honest.push(answer.body.ballot_id);
  }
});
afterAll(async () => {
  await api?.stop();
  if (out) rmSync(out, { recursive: true, force: true });
});

describe('the API keeps hashes, never the address', () => {
  test('one address and one browser give one hash each; others differ; no column holds the address', async () => {
    const rows = await api.db().selectFrom('ballots').selectAll().where('project_id', '=', 'peer-check').orderBy('created_at').execute();
    const of = (ids: string[]) => rows.filter((row) => ids.includes(row.id));
    expect(new Set(of(burst).map((row) => row.client_hash)).size).toBe(1);
    expect(new Set(of(burst).map((row) => row.agent_hash)).size).toBe(1);
    expect(of(burst)[0].client_hash).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(rows.map((row) => row.client_hash)).size).toBe(4);
    const stored = JSON.stringify([
      rows,
      await api.db().selectFrom('answers').selectAll().execute(),
      await api.db().selectFrom('rate_limits').selectAll().execute(),
    ]);
    for (const secret of [STUFFER, '198.51.100.1', '10.0.0.9', 'StuffingBot']) expect(stored).not.toContain(secret);
    // The salt's secret lives beside the database, readable by its owner alone.
    expect(statSync(path.join(api.dataDir, 'signals.key')).mode & 0o777).toBe(0o600);
  });
});

describe('results signals, exclude and include', () => {
  test('signals lists the burst from one address with exactly its ballots', async () => {
    const { code, stdout, stderr } = await results(['signals', 'peer-check', '--format', 'csv', '--address-min', '5']);
    expect(code, stderr).toBe(0);
    const lines = stdout.trim().split('\r\n');
    expect(lines[0]).toBe('kind,strength,score,ballots,excluded,evidence,ballot_ids');
    const address = lines.find((line) => line.startsWith('address_burst,'));
    expect(address).toContain(',1.20,6,0,"6 ballots from one address, 2030-02-01 10:00:00–10:00:25 UTC (up to 6 within 10 min; under 0.1 at its usual pace)",');
    expect(address!.split(',').pop()!.split(' ').sort()).toEqual([...burst].sort());
    expect(stderr).toContain('signals: 9 of 9 ballots (100%)');
    const table = await results(['signals', 'peer-check']);
    expect(table.stdout).toMatch(/^low {6}1\.2 {2}address_burst {2}6 ballots from one address/m);
  });

  test('exclude takes a ballot out of the tally with the why, in the audit trail; include puts it back', async () => {
    const before = await results(['tally', 'peer-check', '--quiet']);
    const excluded = await results(['exclude', 'peer-check', burst[0], '--why', 'one of six ballots from one address in 25 seconds', '--by', 'editor']);
    expect(excluded.code, excluded.stderr).toBe(0);
    expect(excluded.stdout).toMatch(new RegExp(`^Excluded ballot ${burst[0]} from the count \\(by editor at \\d{4}-`));

    const exclusions = path.join(out, 'exclusions.csv');
    const tally = await results(['tally', 'peer-check', '--quiet', '--exclusions', exclusions]);
    expect(tally.code).toBe(0);
    const c5 = (csv: string) =>
      csv
        .split('\r\n')
        .find((line) => line.includes(',c-5,'))!
        .split(',');
    expect(Number(c5(tally.stdout)[6])).toBe(Number(c5(before.stdout)[6]) - 1);
    expect(c5(tally.stdout)[10]).toBe('1'); // excluded_operator_excluded
    const line = readFileSync(exclusions, 'utf8')
      .split('\r\n')
      .find((l) => l.startsWith(burst[0]))!;
    expect(line).toContain(',operator_excluded,excluded by an operator: one of six ballots from one address in 25 seconds (audit ');

    const signals = await results(['signals', 'peer-check', '--format', 'csv']);
    expect(signals.stdout).toMatch(/\naddress_burst,low,1\.20,6,1,/);

    const included = await results(['include', 'peer-check', burst[0], '--why', 'a colleague vouched for the voter', '--by', 'editor']);
    expect(included.code, included.stderr).toBe(0);
    expect((await results(['tally', 'peer-check', '--quiet'])).stdout).toBe(before.stdout);

    const audit = (await results(['audit', 'peer-check'])).stdout
      .trim()
      .split('\r\n')
      .slice(1)
      .map((row) => row.split(',').slice(2, 6));
    expect(audit).toEqual([
      ['editor', 'exclude', burst[0], 'one of six ballots from one address in 25 seconds'],
      ['editor', 'include', burst[0], 'a colleague vouched for the voter'],
    ]);
  }, 120_000); // seven runs of the command line, each starting Node

  test("report writes one HTML file with the tally's figures", async () => {
    const file = path.join(out, 'report.html');
    const { code, stderr } = await results(['report', 'peer-check', '--out', file]);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`report: wrote ${file}`);
    const html = readFileSync(file, 'utf8');
    expect(html).toContain('<div class="card"><b>9</b><span>ballots received</span></div>');
    expect(html).toContain('<strong>address burst</strong>');
    expect(html).not.toMatch(/<script|https?:\/\//i);
  });
});

describe('bad input to signals, exclude, include and report', () => {
  // One ballot excluded beforehand, so that excluding it again has something to repeat.
  beforeAll(async () => {
    expect((await results(['exclude', 'peer-check', burst[1], '--why', 'one of the burst', '--by', 'editor'])).code).toBe(0);
  });

  test.each([
    ['an unknown ballot id', ['exclude', 'peer-check', 'no-such-ballot', '--why', 'x'], 'There is no ballot "no-such-ballot" in this survey'],
    ['a ballot excluded twice', ['exclude', 'peer-check', 'BURST1', '--why', 'again'], 'is excluded already (by editor at '],
    ['including a ballot that is not excluded', ['include', 'peer-check', 'HONEST0', '--why', 'x'], 'is not excluded; there is nothing to include.'],
    ['no --why', ['exclude', 'peer-check', 'HONEST0'], 'exclude needs --why'],
    ['a threshold that is no number', ['signals', 'peer-check', '--window', 'soon'], '--window must be a positive number, got "soon".'],
    ['a report without --out', ['report', 'peer-check'], 'report needs --out FILE'],
  ])('%s: one line, a non-zero exit, nothing changed', async (_, args, message) => {
    const resolved = args.map((arg) => (arg === 'BURST1' ? burst[1] : arg === 'HONEST0' ? honest[0] : arg));
    const before = [
      await rowCounts(api.db()),
      await api.db().selectFrom('audit_log').selectAll().execute(),
      await api.db().selectFrom('ballot_exclusions').selectAll().execute(),
    ];
    const { code, stdout, stderr } = await results(resolved);
    expect(code).not.toBe(0);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain(message);
    expect([
      await rowCounts(api.db()),
      await api.db().selectFrom('audit_log').selectAll().execute(),
      await api.db().selectFrom('ballot_exclusions').selectAll().execute(),
    ]).toEqual(before);
  });
});
