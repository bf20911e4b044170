import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { PDF, SINK_QUERY, rowCounts, sinkBallot, startApi, type Api } from './helpers.ts';
import { runResults } from '../support/results-cli.ts';

// No ballot is thrown away: what the API refuses for a rule is kept whole, listed by
// `results refused` and admitted by `results admit`; what is malformed is not kept.

let api: Api;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api?.stop());

const results = (args: string[]) => runResults(args, { SURVEYS_DIR: inject('surveysDir'), DATA_DIR: api.dataDir, DATABASE_URL: api.databaseUrl });
const refusedRows = () => api.db().selectFrom('refused_ballots').selectAll().orderBy('id').execute();

/** Parses CSV of this project's writing (quoted cells, CRLF lines) into rows of cells. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(cell), (cell = '');
    else if (c === '\r') continue;
    else if (c === '\n') row.push(cell), rows.push(row), (row = []), (cell = '');
    else cell += c;
  }
  return rows;
}

describe('a ballot refused for a rule is kept whole', () => {
  test('an invalid field (422): kept with its reason, problems, every answer and its files by name, size and type', async () => {
    const before = await rowCounts(api.db());
    const { status, body } = await api.post(sinkBallot({ nickname: 'Much too long a nickname', email: 'ada@refused.example', cv: PDF }), { query: SINK_QUERY });
    expect(status).toBe(422);
    expect(await rowCounts(api.db())).toEqual(before);
    const [row] = (await refusedRows()).filter((r) => r.reason === 'invalid_ballot');
    expect(row).toMatchObject({ project_id: 'kitchen-sink', status: 422, secret: null, admitted_at: null });
    expect(JSON.parse(row.problems)).toEqual(body.problems);
    expect(JSON.parse(row.fields)).toEqual(
      expect.arrayContaining([
        ['nickname', 'Much too long a nickname'],
        ['email', 'ada@refused.example'],
        ['nominations[Medicine][Cardiology][1]', 'n-1'],
      ]),
    );
    expect(JSON.parse(row.files)).toEqual([{ field: 'cv', name: 'cv.pdf', type: 'application/pdf', size: PDF.data.byteLength }]);
  });

  test('the same refused ballot sent again is kept once', async () => {
    const ballot = sinkBallot({ nickname: 'Another far too long one' });
    await api.post(ballot, { query: SINK_QUERY });
    await api.post(ballot, { query: SINK_QUERY });
    expect((await refusedRows()).filter((r) => r.fields.includes('Another far too long one'))).toHaveLength(1);
  });

  test('an invalid link (403), an expired survey (410) and a used personal link (409) are kept with their reason', async () => {
    expect((await api.post(sinkBallot({ email: 'guess@refused.example' }), { query: { ...SINK_QUERY, secret: 'constructor' } })).status).toBe(403);
    expect(
      (await api.post(sinkBallot({ email: 'late@refused.example' }), { query: SINK_QUERY, headers: { 'X-Peervote-Now': '2100-01-01T00:00:00Z' } })).status,
    ).toBe(410);
    const personal = { ...SINK_QUERY, secret: 'ks-grace-7Qw2' };
    expect((await api.post(sinkBallot({ email: 'first@refused.example' }), { query: personal })).status).toBe(201);
    expect((await api.post(sinkBallot({ email: 'second@refused.example' }), { query: personal })).status).toBe(409);
    const rows = await refusedRows();
    const reasonOf = (email: string) => rows.find((r) => r.fields.includes(email));
    expect(reasonOf('guess@refused.example')).toMatchObject({ reason: 'invalid_link', status: 403, secret: 'constructor' });
    expect(reasonOf('late@refused.example')).toMatchObject({ reason: 'expired', status: 410 });
    expect(reasonOf('second@refused.example')).toMatchObject({ reason: 'already_submitted', status: 409, secret: 'ks-grace-7Qw2' });
    expect(reasonOf('first@refused.example')).toBeUndefined();
  });

  test('malformed, wrongly typed, oversized and NUL-holding requests are not kept', async () => {
    const before = (await refusedRows()).length;
    const url = `${api.url}/api/survey?${new URLSearchParams(SINK_QUERY)}`;
    const headers = { Origin: api.url };
    expect(
      (
        await api.request(url.slice(api.url.length), {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'multipart/form-data; boundary=x' },
          body: 'not multipart',
        })
      ).status,
    ).toBe(400);
    expect(
      (await api.request(url.slice(api.url.length), { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: '{}' })).status,
    ).toBe(415);
    expect((await api.post(sinkBallot({ nickname: 'nul\u0000here' }), { query: SINK_QUERY })).status).toBe(400);
    expect((await refusedRows()).length).toBe(before);
  });
});

describe('npm run results -- refused / admit', () => {
  test('refused lists the survey’s refused ballots as CSV: id, when, reason, email and the answers', async () => {
    const { code, stdout } = await results(['refused', 'kitchen-sink']);
    expect(code).toBe(0);
    const [header, ...rows] = parseCsv(stdout);
    expect(header.slice(0, 5)).toEqual(['id', 'received_at', 'reason', 'problems', 'email']);
    expect(header).toContain('nickname');
    const invalid = rows.find((row) => row[4] === 'ada@refused.example')!;
    expect(invalid[2]).toBe('invalid_ballot');
    expect(invalid[3]).toContain('nickname: Keep the nickname short.');
    expect(invalid[header.indexOf('nickname')]).toBe('Much too long a nickname');
    expect(invalid[header.indexOf('files')]).toBe(`cv: cv.pdf (${PDF.data.byteLength} bytes)`);
    expect(rows.map((row) => row[2])).toEqual(expect.arrayContaining(['invalid_link', 'expired', 'already_submitted']));
  });

  test('admit stores the ballot as the API would, records who, when and why, and refuses a second admission in one line', async () => {
    const row = (await refusedRows()).find((r) => r.fields.includes('late@refused.example'))!;
    const before = await rowCounts(api.db());
    const { code, stdout } = await results(['admit', 'kitchen-sink', row.id, '--why', 'The voter mailed us before the deadline', '--by', 'tester']);
    expect(code, stdout).toBe(0);
    const ballotId = /as ballot (\S+) at/.exec(stdout)![1];
    const after = await rowCounts(api.db());
    expect(after.ballots).toBe(before.ballots + 1);
    const nominations = await api.db().selectFrom('nominations').select('nominee_id').where('ballot_id', '=', ballotId).orderBy('slot').execute();
    expect(nominations.map((n) => n.nominee_id)).toEqual(['n-1', 'n-2']);
    const email = await api.db().selectFrom('answers').select('value').where('ballot_id', '=', ballotId).where('field', '=', 'email').executeTakeFirst();
    expect(email?.value).toBe('late@refused.example');
    const admitted = (await refusedRows()).find((r) => r.id === row.id)!;
    expect(admitted).toMatchObject({ admitted_by: 'tester', admit_reason: 'The voter mailed us before the deadline', ballot_id: ballotId });
    expect(admitted.admitted_at).toMatch(/^\d{4}-\d\d-\d\dT/);

    const again = await results(['admit', 'kitchen-sink', row.id, '--why', 'again', '--by', 'tester']);
    expect(again.code).toBe(1);
    expect(again.stderr.trim().split('\n')).toEqual([
      `Refused ballot ${row.id} was admitted already, as ballot ${ballotId}, by tester at ${admitted.admitted_at}.`,
    ]);
    expect((await rowCounts(api.db())).ballots).toBe(after.ballots);
  });

  test('admit applies the personal link’s read-only values, and a link keeps its one ballot', async () => {
    const row = (await refusedRows()).find((r) => r.fields.includes('second@refused.example'))!;
    const { code, stderr } = await results(['admit', 'kitchen-sink', row.id, '--why', 'duplicate', '--by', 'tester']);
    expect(code).toBe(1);
    expect(stderr).toContain('came by a personal link that has a ballot already');
    expect((await refusedRows()).find((r) => r.id === row.id)?.admitted_at).toBeNull();
  });

  test('admit needs a reason and a known id', async () => {
    const row = (await refusedRows()).find((r) => r.fields.includes('guess@refused.example'))!;
    expect((await results(['admit', 'kitchen-sink', row.id])).stderr).toContain('Say why the ballot is admitted');
    expect((await results(['admit', 'kitchen-sink', 'no-such-id', '--why', 'x'])).stderr).toContain('There is no refused ballot no-such-id in kitchen-sink');
  });
});

describe('a nominee id off the list', () => {
  test('is stored with its ballot, excluded by the tally as not_on_list, and marked in the export', async () => {
    const { status, body } = await api.post(sinkBallot({ email: 'offlist@example.org', 'nominations[Medicine][Cardiology][2]': 'n-404' }), {
      query: SINK_QUERY,
    });
    expect(status).toBe(201);
    const stored = await api.db().selectFrom('nominations').select(['slot', 'nominee_id']).where('ballot_id', '=', body.ballot_id).orderBy('slot').execute();
    expect(stored).toEqual([
      { slot: 1, nominee_id: 'n-1' },
      { slot: 2, nominee_id: 'n-404' },
    ]);
    const file = path.join(api.dataDir, 'exclusions.csv');
    const tally = await results(['tally', 'kitchen-sink', '--quiet', '--exclusions', file]);
    expect(tally.code, tally.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/n-404[^\n]*not_on_list/);
    const exported = await results(['export', 'kitchen-sink', '--quiet']);
    const line = exported.stdout.split('\r\n').find((l) => l.startsWith(body.ballot_id))!;
    expect(line).toContain('n-404,(not on the list)');
  });
});
