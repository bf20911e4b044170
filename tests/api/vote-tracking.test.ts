import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { oneInstant, startApi, type Api, type Fields } from './helpers.ts';
import { PEER_CHECK_BALLOTS, type HandBallot } from '../support/peer-check-ballots.ts';

// Running a whole vote with the operator's commands, against the API's own database (SQLite or
// PostgreSQL, as this project runs): roster → personal links → ballots with receipts →
// responses and reminders → purge of personal data, every change in the audit trail.

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const QUERY = { project_id: 'peer-check', project_type: 'form' };

let api: Api;
let work: string;
let privateDir: string;

async function results(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/results.mjs', ...args], {
      cwd: ROOT,
      env: { ...process.env, SURVEYS_DIR: inject('surveysDir'), DATA_DIR: api.dataDir, DATABASE_URL: api.databaseUrl, PEERVOTE_PRIVATE_DIR: privateDir },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

function fields(ballot: HandBallot): Fields {
  const form: Fields = Object.entries(ballot.answers ?? {});
  for (const [subcategory, nominees] of Object.entries(ballot.votes ?? {}))
    nominees.forEach((id, i) => form.push([`nominations[Medicine][${subcategory}][${i + 1}]`, id]));
  (ballot.writeIns ?? []).forEach(([name, subcategory], i) =>
    form.push([`writeins[${i}][name]`, name], [`writeins[${i}][category]`, `Medicine / ${subcategory}`]),
  );
  form.push(['affirm', 'on']);
  return form;
}

/** Tests that run several commands (a Node process each) get the time for them on a busy machine. */
const SLOW = 120_000;

const csv = (text: string) =>
  text
    .trim()
    .split('\r\n')
    .map((line) => line.split(','));
const auditActions = async () =>
  csv((await results(['audit', 'peer-check'])).stdout)
    .slice(1)
    .map((cells) => cells[3]);

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'peervote-vote-'));
  privateDir = path.join(work, 'private');
  // The API reads the personal links from the private folder too, as a deployment keeps them out of the repository.
  api = await startApi({ PEERVOTE_PRIVATE_DIR: privateDir });
});
afterAll(async () => {
  await api?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('receipts', () => {
  test(
    'each stored ballot is answered with its own random receipt; a replay carries the same one; the check tells whether and when',
    async () => {
      const ballot = fields({ at: '', answers: { 'name-first': 'Rita', 'name-last': 'Receipt', email: 'rita@example.org' }, votes: { Cardiology: ['c-3'] } });
      const headers = { 'Idempotency-Key': '"receipt-test-1"', 'X-Peervote-Now': '2030-02-01T10:00:00.000Z' };
      const first = await api.post(ballot, { query: QUERY, headers });
      expect(first.status).toBe(201);
      expect(first.body.receipt).toMatch(/^[0-9ABCDEFGHJKMNPQRSTVWXYZ]{12}$/);
      const replay = await api.post(ballot, { query: QUERY, headers });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.receipt).toBe(first.body.receipt);
      const other = await api.post(ballot, { query: QUERY, headers: { 'X-Peervote-Now': '2030-02-01T10:05:00.000Z' } });
      expect(other.body.receipt).not.toBe(first.body.receipt);
      expect(first.body.receipt).not.toContain(first.body.ballot_id.slice(0, 8).toUpperCase());

      const code = first.body.receipt as string;
      const typed = `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8)}`.toLowerCase();
      const check = await api.get(`/api/survey/receipt/peer-check/${typed}`);
      expect(check).toMatchObject({ status: 200, body: { received: true, received_at: '2030-02-01T10:00:00.000Z' } });
      expect(Object.keys(check.body)).toEqual(['received', 'received_at']);
      const unknown = code === 'ZZZZZZZZZZZZ' ? 'YYYYYYYYYYYY' : 'ZZZZZZZZZZZZ';
      expect((await api.get(`/api/survey/receipt/peer-check/${unknown}`)).body).toEqual({ received: false });
      expect((await api.get('/api/survey/receipt/peer-check/not-a-code')).body).toMatchObject({ error: 'bad_receipt' });
      expect((await api.get('/api/survey/receipt/peer-check/not-a-code')).status).toBe(400);
      expect((await api.get(`/api/survey/receipt/nope/${code}`)).status).toBe(404);
      // The check form without JavaScript: a plain page in the voter's words.
      const page = await api.get(`/api/survey/receipt/peer-check?code=${typed}`, { Accept: 'text/html' });
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.body).toContain(`Your ballot with the receipt ${typed.toUpperCase()} was received on 1 February 2030 at 10:00 UTC.`);

      const operator = await results(['receipt', 'peer-check', typed]);
      expect(operator.code, operator.stderr).toBe(0);
      expect(operator.stdout).toContain(`ballot ${first.body.ballot_id}, received 2030-02-01T10:00:00.000Z by the public link.`);
      expect(operator.stdout).toContain('The tally counts it: all 1 of its votes.');
      const duplicate = await results(['receipt', 'peer-check', other.body.receipt]);
      expect(duplicate.stdout).toContain(
        `The tally does not count it: none of its 1 votes; each is left out:\n  Cardiology: c-3 (Chen Wei): duplicate_ballot, same email as ballot ${first.body.ballot_id}, which stands\n`,
      );
      // A ballot an operator took out of the count says so, with the why; put back, it counts again.
      expect((await results(['exclude', 'peer-check', first.body.ballot_id, '--why', 'sent from a shared clinic account', '--by', 'tester'])).code).toBe(0);
      expect((await results(['receipt', 'peer-check', typed])).stdout).toMatch(
        /The tally does not count it: none of its 1 votes; each is left out:\n {2}Cardiology: c-3 \(Chen Wei\): operator_excluded, excluded by an operator: sent from a shared clinic account \(audit [0-9a-f-]{36}\)\n/,
      );
      expect((await results(['include', 'peer-check', first.body.ballot_id, '--why', 'checked: a real voter', '--by', 'tester'])).code).toBe(0);
      expect((await results(['receipt', 'peer-check', typed])).stdout).toContain('The tally counts it: all 1 of its votes.');
      expect((await results(['receipt', 'peer-check', unknown])).stderr).toBe(
        `No ballot of peer-check has the receipt ${unknown.slice(0, 4)}-${unknown.slice(4, 8)}-${unknown.slice(8)}.\n`,
      );
    },
    SLOW,
  );
});

describe('from a roster to reminders', () => {
  const roster = (rows: string) => {
    const file = path.join(work, `roster-${Math.random().toString(36).slice(2)}.csv`);
    writeFileSync(file, `email,name-first,name-last,medical-license,medical-practice,nominee_id\n${rows}`);
    return file;
  };
  const people =
    'ivy@example.org,Ivy,Ito,MD-7001,Northgate Clinic,\njon@example.org,Jon,Berg,MD-7002,Riverside Heart,c-2\nkim@example.org,Kim,Park,MD-7003,Northgate Clinic,\n';
  let links: Record<string, string>;

  test(
    'invite writes the personal links outside the repository and the mailing list; a link opens prefilled, and only with its fields',
    async () => {
      const out = path.join(work, 'links.csv');
      const invited = await results([
        'invite',
        'peer-check',
        '--roster',
        roster(people),
        '--base-url',
        'https://vote.example.com',
        '--out',
        out,
        '--by',
        'editor',
        '--why',
        'spring mailing',
      ]);
      expect(invited.code, invited.stderr).toBe(0);
      // The fixture's two people were on file already: they are kept.
      expect(invited.stderr).toContain('invite: 3 added, 0 updated, 0 unchanged, 2 on file but not on the roster (kept; --remove-missing removes them).');
      const file = path.join(privateDir, 'peer-check', 'prepopulation.yaml');
      expect(existsSync(file)).toBe(true);
      expect(existsSync(path.join(inject('surveysDir'), 'peer-check', 'prepopulation.yaml'))).toBe(true);
      const rows = csv(readFileSync(out, 'utf8'));
      expect(rows[0]).toEqual(['name', 'email', 'url']);
      expect(rows.slice(1).map((r) => [r[0], r[1]])).toEqual([
        ['Ivy Ito', 'ivy@example.org'],
        ['Jon Berg', 'jon@example.org'],
        ['Kim Park', 'kim@example.org'],
      ]);
      links = Object.fromEntries(rows.slice(1).map((r) => [r[1], r[2].split('/').pop()!]));
      for (const url of rows.slice(1).map((r) => r[2])) expect(url).toMatch(/^https:\/\/vote\.example\.com\/peer-check\/[A-Za-z0-9_-]{22}$/);

      const opened = await api.get(`/api/survey/link/peer-check?secret=${links['jon@example.org']}`);
      expect(opened).toMatchObject({
        status: 200,
        body: {
          prepopulated: {
            'name-first': 'Jon',
            'name-last': 'Berg',
            'medical-license': 'MD-7002',
            'medical-practice': 'Riverside Heart',
            email: 'jon@example.org',
          },
        },
      });
      expect(opened.body.prepopulated).not.toHaveProperty('nominee_id');
      // Opened twice, as a mail scanner and then the voter would: the link still works.
      expect((await api.get(`/api/survey/link/peer-check?secret=${links['jon@example.org']}`)).status).toBe(200);
      expect((await api.get(`/api/survey/link/peer-check?secret=${links['ivy@example.org']}`)).status).toBe(200);
      const stored = JSON.stringify(await api.db().selectFrom('link_opens').selectAll().execute());
      for (const secret of Object.values(links)) expect(stored).not.toContain(secret);

      const vote = await api.post(fields({ at: '', answers: { email: 'jon@example.org' }, votes: { Cardiology: ['c-3'] } }), {
        query: { ...QUERY, secret: links['jon@example.org'] },
      });
      expect(vote.status, JSON.stringify(vote.body)).toBe(201);
    },
    SLOW,
  );

  test(
    'a second run keeps every secret; a bad roster is named by line and column and changes nothing',
    async () => {
      const file = path.join(privateDir, 'peer-check', 'prepopulation.yaml');
      const before = readFileSync(file, 'utf8');
      const again = await results(['invite', 'peer-check', '--roster', roster(people), '--base-url', 'https://vote.example.com']);
      expect(again.stderr).toContain('invite: 0 added, 0 updated, 3 unchanged');
      expect(
        Object.fromEntries(
          csv(again.stdout)
            .slice(1)
            .map((r) => [r[1], r[2].split('/').pop()]),
        ),
      ).toEqual(links);
      expect(readFileSync(file, 'utf8')).toBe(before);

      const trail = await auditActions();
      const bad = await results(['invite', 'peer-check', '--roster', roster(`${people}ivy@example.org,Ivy,Again,,,\n,No,Email,,,\n`)]);
      expect(bad.code).not.toBe(0);
      expect(bad.stdout).toBe('');
      expect(bad.stderr.trim().split('\n')).toHaveLength(1);
      expect(bad.stderr).toContain('line 5, column "email": "ivy@example.org" is already on line 2');
      expect(bad.stderr).toContain('line 6, column "email": is empty');
      expect(readFileSync(file, 'utf8')).toBe(before);
      expect(await auditActions()).toEqual(trail);
    },
    SLOW,
  );

  test(
    'responses: invited, responded and pending, overall and per column; the reminder list holds who has not voted',
    async () => {
      const table = await results(['responses', 'peer-check', '--by', 'medical-practice', '--format', 'csv']);
      expect(table.code, table.stderr).toBe(0);
      expect(csv(table.stdout)).toEqual([
        ['medical-practice', 'invited', 'responded', 'pending', 'opened_not_submitted', 'never_opened', 'response_rate'],
        ['(all)', '5', '1', '4', '1', '3', '20%'],
        ['Northgate Clinic', '3', '0', '3', '1', '2', '0%'],
        ['Riverside Heart', '1', '1', '0', '0', '0', '100%'],
        ['Skin Partners', '1', '0', '1', '0', '1', '0%'],
      ]);
      const out = path.join(work, 'remind.csv');
      const remind = await results(['responses', 'peer-check', '--pending', '--base-url', 'https://vote.example.com', '--out', out]);
      expect(remind.code, remind.stderr).toBe(0);
      const rows = csv(readFileSync(out, 'utf8'));
      expect(rows[0]).toEqual(['name', 'email', 'url', 'status', 'first_opened_at', 'last_opened_at']);
      expect(
        rows
          .slice(1)
          .map((r) => [r[0], r[3]])
          .sort(),
      ).toEqual([
        ['Ana Ferreira', 'not_opened'],
        ['Greta Olsen', 'not_opened'],
        ['Ivy Ito', 'opened'],
        ['Kim Park', 'not_opened'],
      ]);
      expect(rows.find((r) => r[0] === 'Ivy Ito')![2]).toBe(`https://vote.example.com/peer-check/${links['ivy@example.org']}`);
      expect((await results(['responses', 'peer-check', '--by', 'shoe-size'])).stderr).toMatch(/^No invited person has a "shoe-size"; --by takes one of /);
    },
    SLOW,
  );
});

describe('purging personal data', () => {
  test(
    'refuses an open survey without --force and --why; then the tally is the same and the personal answers are gone',
    async () => {
      for (const ballot of PEER_CHECK_BALLOTS) {
        const secret = ballot.link === 'demo' ? 'demo' : ballot.secret;
        const answer = await api.post(fields(ballot), { query: { ...QUERY, ...(secret ? { secret } : {}) }, headers: { 'X-Peervote-Now': ballot.at } });
        expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      }
      const tallyBefore = await results(['tally', 'peer-check', '--threshold', '2', '--quiet']);
      expect(tallyBefore.code, tallyBefore.stderr).toBe(0);

      const refused = await results(['purge-personal', 'peer-check']);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toBe(
        'peer-check is still open (it runs until 2099-12-31); purge its personal data once the vote is over, or add --force --why "…" to do it now.\n',
      );
      expect((await results(['purge-personal', 'peer-check', '--force'])).stderr).toContain('say why with --why');

      const dry = await results(['purge-personal', 'peer-check', '--force', '--dry-run', '--quiet']);
      expect(dry.stdout).toMatch(
        /^Dry run, nothing changed\. purge-personal would remove from 12 ballots: \d+ personal answers \(name-first, name-last, medical-license, email\), 0 uploads, 0 refused ballots, 0 stored files\.\n$/,
      );
      const trail = await auditActions();
      expect(trail).not.toContain('purge-personal');

      const purged = await results(['purge-personal', 'peer-check', '--force', '--why', 'test of the retention rule', '--by', 'dpo', '--quiet']);
      expect(purged.code, purged.stderr).toBe(0);
      expect(purged.stdout).toMatch(/^Purged 12 ballots: \d+ personal answers/);
      const left = await api.db().selectFrom('answers').select('field').where('field', 'in', ['name-first', 'name-last', 'medical-license', 'email']).execute();
      expect(left).toEqual([]);
      const tallyAfter = await results(['tally', 'peer-check', '--threshold', '2', '--quiet']);
      expect(tallyAfter.stdout).toBe(tallyBefore.stdout);
      expect(tallyAfter.stderr).toMatch(/Config digest: [0-9a-f]{12}; reflects audit entry [0-9a-f-]{36} \(\d{4}-[^,]+, purge-personal\)\.\n$/);
      expect(existsSync(path.join(privateDir, 'peer-check', 'pseudonym.key'))).toBe(true);

      const entries = csv((await results(['audit', 'peer-check'])).stdout).slice(1);
      expect(entries.map((cells) => [cells[2], cells[3], cells[5]])).toEqual([
        ['tester', 'exclude', 'sent from a shared clinic account'],
        ['tester', 'include', 'checked: a real voter'],
        ['editor', 'invite', 'spring mailing'],
        [expect.any(String), 'invite', ''],
        ['dpo', 'purge-personal', 'test of the retention rule'],
      ]);
      expect((await results(['purge-personal', 'peer-check', '--force', '--why', 'again', '--quiet'])).stdout).toBe(
        'Nothing to purge: every ballot of peer-check has been purged already.\n',
      );
      expect(await auditActions()).toHaveLength(5);
    },
    SLOW,
  );
});

describe('why, for decisions', () => {
  test(
    'confirm-reservation and writeins resolve record --why in the trail',
    async () => {
      const held = await api.post(
        [...fields({ at: '', answers: { 'name-first': 'Fay', 'name-last': 'Face' }, votes: { Cardiology: ['c-3'] } }), ['faces', 'dermatology']],
        { query: QUERY },
      );
      expect(held.body.reservations).toEqual([{ field: 'faces', tile: 'dermatology', status: 'reserved' }]);
      const confirmed = await results(['confirm-reservation', 'peer-check', 'faces', 'dermatology', '--by', 'editor', '--why', 'agreed by phone']);
      expect(confirmed.code, confirmed.stderr).toBe(0);
      const resolved = await results(['writeins', 'resolve', 'peer-check', '--name', 'Mickey Mouse', '--reject', '--by', 'editor', '--why', 'not a physician']);
      expect(resolved.code, resolved.stderr).toBe(0);
      const entries = csv((await results(['audit', 'peer-check'])).stdout).slice(-2);
      expect(entries.map((cells) => [cells[3], cells[4], cells[5]])).toEqual([
        ['confirm-reservation', 'faces/dermatology', 'agreed by phone'],
        ['writeins resolve', 'mickey mouse', 'not a physician'],
      ]);
    },
    SLOW,
  );
});

describe('the receipt check is rate-limited', () => {
  test('past the limit a client is told to come back later', async () => {
    const at = oneInstant();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await api.get('/api/survey/receipt/peer-check/ZZZZZZZZZZZZ', at)).status);
    expect(statuses).toContain(429);
    const limited = await api.get('/api/survey/receipt/peer-check/ZZZZZZZZZZZZ', at);
    expect(limited).toMatchObject({ status: 429, body: { error: 'rate_limited' } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
