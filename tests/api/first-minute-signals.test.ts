import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { startApi, type Api, type Fields } from './helpers.ts';

// Signals from the first minute: a scripted burst on a survey opened a minute ago, and ballots
// filled faster than a person reads, as `results signals` sees them through the API.

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const QUERY = { project_id: 'peer-check', project_type: 'form' };
const OPENED = Date.parse('2030-03-01T08:00:00Z');
/** The API's secret for hashing client addresses and sealing personal links, which the commands share. */
const SIGNALS_SECRET = 's'.repeat(40);

let api: Api;
const burst: string[] = [];
const fast: string[] = [];

async function signals(): Promise<string> {
  const { stdout } = await run(process.execPath, ['bin/results.mjs', 'signals', 'peer-check', '--quiet'], {
    cwd: ROOT,
    // The API's own settings, as an operator runs the commands: its people's links are sealed under its SIGNALS_SECRET.
    env: { ...process.env, SURVEYS_DIR: inject('surveysDir'), DATA_DIR: api.dataDir, DATABASE_URL: api.databaseUrl, SIGNALS_SECRET },
  });
  return stdout;
}

const ballot = (first: string, nominee: string, fillSeconds?: string): Fields => [
  ['name-first', first],
  ['name-last', 'Voter'],
  ['nominations[Medicine][Cardiology][1]', nominee],
  ['affirm', 'on'],
  ...(fillSeconds === undefined ? [] : ([['fill_seconds', fillSeconds]] as Fields)),
];

function post(fields: Fields, atMs: number, address: string, agent: string) {
  return api.post(fields, {
    query: QUERY,
    headers: { 'X-Peervote-Now': new Date(atMs).toISOString(), 'X-Forwarded-For': address, 'User-Agent': agent },
  });
}

beforeAll(async () => {
  api = await startApi({ TRUST_PROXY: '1', SIGNALS_SECRET });
  // Twelve made-up voters from one address within seconds, a minute after the survey opened.
  for (let i = 0; i < 12; i++) {
    const answer = await post(ballot(`Made${i}`, 'c-5', '240'), OPENED + 60_000 + i * 2_000, '203.0.113.50', 'Script/1.0');
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    burst.push(answer.body.ballot_id);
  }
});
afterAll(() => api?.stop());

describe('signals from the first minute', () => {
  test('results signals flags a scripted burst on a survey opened a minute ago: one address burst of all 12 ballots', async () => {
    const output = await signals();
    const lines = output.split('\n');
    const burstLine = lines.findIndex((line) => line.includes('address_burst') && line.includes('more than a person can fill (2 a minute)'));
    expect(burstLine, output).toBeGreaterThanOrEqual(0);
    expect(lines[burstLine + 1]).toContain(`12 ballots: ${burst.join(' ')}`);
  });

  test('the fill time is stored as whole seconds, at most a day; anything else is refused with nothing stored', async () => {
    // Three ballots from one address an hour apart, each filled in seconds; one honest ballot posted without the page.
    for (let i = 0; i < 3; i++) {
      const answer = await post(ballot(`Quick${i}`, 'c-2', String(4 + i)), OPENED + (i + 1) * 3_600_000, '198.51.100.7', 'Browser/1');
      expect(answer.status).toBe(201);
      fast.push(answer.body.ballot_id);
    }
    expect((await post(ballot('Plain', 'c-3'), OPENED + 5 * 3_600_000, '198.51.100.99', 'curl/8')).status).toBe(201);
    const row = await api.db().selectFrom('ballots').select('fill_seconds').where('id', '=', fast[0]).executeTakeFirstOrThrow();
    expect(row.fill_seconds).toBe(4);
    const bad = await post(ballot('Odd', 'c-2', '4.5s'), OPENED + 9 * 3_600_000, '198.51.100.8', 'Browser/2');
    expect(bad.status).toBe(422);
    expect(bad.body.problems).toEqual([{ path: 'fill_seconds', message: 'The time spent on the ballot must be whole seconds.' }]);
    const long = await post(ballot('Slow', 'c-2', '999999'), OPENED + 9 * 3_600_000, '198.51.100.8', 'Browser/2');
    expect(long.status).toBe(201);
    const slow = await api.db().selectFrom('ballots').select('fill_seconds').where('id', '=', long.body.ballot_id).executeTakeFirstOrThrow();
    expect(slow.fill_seconds).toBe(86_400);
  });

  test('results signals flags the fast ballots, and counts the untimed ones in its summary', async () => {
    const output = await signals();
    const lines = output.split('\n');
    const fastLine = lines.findIndex((line) => line.includes('fast_ballot'));
    expect(fastLine, output).toBeGreaterThanOrEqual(0);
    expect(lines[fastLine + 1]).toContain(`3 ballots: ${fast.join(' ')}`);
    expect(output).toContain("1 ballot came without the page's fill time");
  });
});
