import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { rowCounts, startApi, type Api, type Fields } from './helpers.ts';
import { PEER_CHECK_BALLOTS, PEER_CHECK_DECISIONS, PEER_CHECK_TALLY, type HandBallot } from '../support/peer-check-ballots.ts';
import { loadPrepopulation, loadSurvey } from '../../src/survey/config/loader.ts';
import { loadNominees } from '../../src/survey/nominees/nominee-file.ts';
import { tallySurvey } from '../../src/results/tally/tally.ts';
import { exportBallots } from '../../src/results/export/export.ts';
import { exclusionCsvLine, rankTally, tallyCsv } from '../../src/results/tally/tally-report.ts';
import { runResults } from '../support/results-cli.ts';

// The operator's command line end to end: ballots go in through the API, `npm run results`
// reads them from the same database (SQLite or PostgreSQL, as this project runs).

const QUERY = { project_id: 'peer-check', project_type: 'form' };

let api: Api;
let ids: string[];
let out: string;

/** Runs `npm run results -- …args` on this API's database; never throws, answers the exit code and both outputs. */
function results(args: string[], env: Record<string, string> = {}) {
  return runResults(args, { SURVEYS_DIR: inject('surveysDir'), DATA_DIR: api.dataDir, DATABASE_URL: api.databaseUrl, ...env });
}

function fields(ballot: HandBallot): Fields {
  const form: Fields = Object.entries(ballot.answers ?? {});
  for (const [subcategory, nominees] of Object.entries(ballot.votes ?? {}))
    nominees.forEach((id, i) => form.push([`nominations[Medicine][${subcategory}][${i + 1}]`, id]));
  (ballot.writeIns ?? []).forEach(([name, subcategory], i) =>
    form.push([`writeins[${i}][name]`, name], [`writeins[${i}][category]`, `Medicine / ${subcategory}`]),
  );
  if (ballot.faces) form.push(['faces', ballot.faces]);
  form.push(['affirm', 'on']);
  return form;
}

beforeAll(async () => {
  api = await startApi();
  out = mkdtempSync(path.join(tmpdir(), 'peervote-results-out-'));
  ids = [];
  for (const ballot of PEER_CHECK_BALLOTS) {
    const secret = ballot.link === 'demo' ? 'demo' : ballot.secret;
    const answer = await api.post(fields(ballot), { query: { ...QUERY, ...(secret ? { secret } : {}) }, headers: { 'X-Peervote-Now': ballot.at } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    ids.push(answer.body.ballot_id);
  }
});
afterAll(async () => {
  await api?.stop();
  if (out) rmSync(out, { recursive: true, force: true });
});

describe('npm run results', () => {
  test('writeins lists the write-ins to reconcile, with the closest nominees', async () => {
    const { code, stdout } = await results(['writeins', 'peer-check']);
    expect(code).toBe(0);
    expect(stdout).toContain(
      '    2  "Dr. Bo Lindqvist" in Medicine / Cardiology  also written "bo lindqvist" (1)\n       pending\n       ~ c-2 Bo Lindqvist, Riverside Heart (100%)',
    );
    expect(stdout).toContain('4 write-in names, 4 pending (5 write-ins).');
  });

  test('a tally before any decision leaves the write-ins out and says so', async () => {
    const { code, stderr } = await results(['tally', 'peer-check', '--quiet']);
    expect(code).toBe(0);
    expect(stderr).toContain('Write-ins awaiting a decision, not counted yet: 5 (see the writeins command).');
  });

  test('writeins resolve records decisions with who and when; tally honours them: the exact CSV', async () => {
    for (const [name, category, resolution] of PEER_CHECK_DECISIONS) {
      const how =
        resolution.action === 'merge'
          ? ['--nominee', resolution.nomineeId]
          : resolution.action === 'new'
            ? ['--new', '--id', resolution.nomineeId]
            : ['--reject'];
      const { code, stdout } = await results([
        'writeins',
        'resolve',
        'peer-check',
        '--name',
        name,
        '--category',
        category,
        ...how,
        '--by',
        'tester',
        '--why',
        'checked against the state register',
      ]);
      expect(code, stdout).toBe(0);
      expect(stdout).toMatch(/decided by tester at \d{4}-/);
    }
    const log = await results(['writeins', 'log', 'peer-check']);
    expect(
      log.stdout
        .trim()
        .split('\r\n')
        .map((line) => line.split(',').slice(1, 7).join(',')),
    ).toEqual([
      'decided_by,category,subcategory,name_key,action,nominee_id',
      'tester,Medicine,Cardiology,bo lindqvist,merge,c-2',
      'tester,Medicine,Dermatology,hana sato,new,wi-hana-sato',
      'tester,Medicine,Cardiology,mickey mouse,reject,',
    ]);

    const exclusions = path.join(out, 'exclusions.csv');
    const { code, stdout, stderr } = await results(['tally', 'peer-check', '--threshold', '2', '--exclusions', exclusions]);
    expect(code, stderr).toBe(0);
    expect(stdout).toBe(PEER_CHECK_TALLY);
    expect(stderr).toContain('tally: 9 of 9 ballots (100%)');
    expect(stderr).toContain('Medicine / Cardiology: 9 votes counted, 4 excluded');
    expect(stderr).toContain('Ballots: 9 read, 6 counted. Votes: 13 counted.');
    expect(stderr).toContain('Write-ins awaiting a decision, not counted yet: 1');
    const lines = readFileSync(exclusions, 'utf8').trim().split('\r\n');
    expect(lines.map((line) => line.split(',')).map((cells) => [ids.indexOf(cells[0]) + 1, cells[4], cells[8]])).toEqual([
      [0, 'nominee_id', 'reason'],
      [2, 'c-4', 'duplicate_ballot'],
      [3, 'c-1', 'self_vote'],
      [4, 'd-3', 'self_vote'],
      [6, 'c-2', 'demo_ballot'],
      [7, 'd-2', 'duplicate_ballot'],
      [9, 'c-2', 'repeat_on_ballot'],
    ]);
    expect(lines[1]).toContain(`same email as ballot ${ids[0]}, which stands`);

    // --out writes the CSV to a file, and the summary to standard output.
    const file = path.join(out, 'tally.csv');
    const toFile = await results(['tally', 'peer-check', '--threshold', '2', '--out', file, '--quiet', '--top', '1']);
    expect(readFileSync(file, 'utf8')).toBe(PEER_CHECK_TALLY);
    expect(toFile.stdout).toMatch(/^Medicine \/ Cardiology: 9 votes counted, 4 excluded\n {2}# {3}Nominee/);
  });

  test("a survey's own methodology: the same CSV to the byte on SQLite and PostgreSQL and run after run, naming its configuration and audit entry", async () => {
    // The peer-check survey with a tally: block, in a copy of the surveys that the other database's run shares.
    const surveys = path.join(out, 'surveys-methodology');
    cpSync(inject('surveysDir'), surveys, { recursive: true });
    const yaml = path.join(surveys, 'peer-check', 'survey.yaml');
    writeFileSync(yaml, `${readFileSync(yaml, 'utf8')}\ntally:\n  points: [3, 2, 1]\n  same_practice: exclude\n  publish: { top: 2, ties: exclude }\n`);
    const file = path.join(out, 'weighted.csv');
    const first = await results(['tally', 'peer-check', '--out', file, '--quiet'], { SURVEYS_DIR: surveys });
    expect(first.code, first.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(
      [
        'category,subcategory,rank,nominee_id,nominee,practice,counted,points,share,winner,excluded_demo_ballot,excluded_operator_excluded,excluded_duplicate_ballot,excluded_not_on_list,excluded_repeat_on_ballot,excluded_self_vote,excluded_same_practice',
        'Medicine,Cardiology,1,c-2,Bo Lindqvist,Riverside Heart,4,8,47.1,yes,1,0,0,0,1,0,1',
        'Medicine,Cardiology,2,c-3,Chen Wei,Lakeside Group,3,6,35.3,yes,0,0,0,0,0,0,0',
        'Medicine,Cardiology,3,c-4,Dana Kowalski,Northgate Clinic,1,3,17.6,,0,0,1,0,0,0,0',
        'Medicine,Cardiology,,c-1,Ana Ferreira,Northgate Clinic,0,0,0.0,,0,0,0,0,0,1,0',
        'Medicine,Dermatology,1,d-1,Émile Roux,Skin Partners,1,3,50.0,yes,0,0,0,0,0,0,1',
        'Medicine,Dermatology,2,d-2,Fatima Khan,Northgate Clinic,1,2,33.3,yes,0,0,1,0,0,0,0',
        'Medicine,Dermatology,3,wi-hana-sato,Hana Sato,,1,1,16.7,,0,0,0,0,0,0,0',
        'Medicine,Dermatology,,d-3,Greta Olsen,Skin Partners,0,0,0.0,,0,0,0,0,0,1,0',
      ]
        .map((line) => `${line}\r\n`)
        .join(''),
    );
    const again = await results(['tally', 'peer-check', '--quiet'], { SURVEYS_DIR: surveys });
    expect(again.stdout).toBe(readFileSync(file, 'utf8'));

    const trail = (await results(['audit', 'peer-check'])).stdout.trim().split('\r\n');
    const [audit, at, , action] = trail[trail.length - 1].split(',');
    const meta = JSON.parse(readFileSync(`${file}.meta.json`, 'utf8'));
    expect(meta).toMatchObject({
      survey: 'peer-check',
      audit_entry: audit,
      ballots: 9,
      threshold: null,
      methodology: { points: [3, 2, 1], same_practice: 'exclude' },
    });
    expect(meta.config_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(first.stdout).toContain(`Config digest: ${meta.config_digest.slice(0, 12)}; reflects audit entry ${audit} (${at}, ${action}).`);
    expect(again.stderr).toContain(`Config digest: ${meta.config_digest.slice(0, 12)}; reflects audit entry ${audit} (${at}, ${action}).`);
    // The survey without a block counts by other rules, so it names another configuration.
    expect((await results(['tally', 'peer-check', '--quiet'])).stderr).not.toContain(meta.config_digest.slice(0, 12));

    const methodology = await results(['methodology', 'peer-check'], { SURVEYS_DIR: surveys, DATA_DIR: '/nonexistent/peervote', DATABASE_URL: '' });
    expect(methodology.code, methodology.stderr).toBe(0);
    expect(methodology.stdout).toMatch(/^# How the votes of Peer Check are counted\n\n- /);
    expect(methodology.stdout).toContain("- A vote for a colleague of the voter's own practice is not counted.\n");
  });

  test('pages of any size read the same tally, exclusions and export, on either database', async () => {
    const survey = loadSurvey('peer-check', inject('surveysDir'));
    const input = { survey, nominees: loadNominees(survey), prepopulation: loadPrepopulation(survey) };
    const read = async (pageSize?: number) => {
      let exclusions = '';
      const tally = await tallySurvey(api.db(), { ...input, pageSize, onExclusion: (e) => void (exclusions += exclusionCsvLine(e)) });
      let csv = '';
      let jsonl = '';
      const now = new Date('2030-02-01T00:00:00Z');
      await exportBallots(api.db(), { ...input, format: 'csv', pageSize, now, write: (chunk) => void (csv += chunk) });
      await exportBallots(api.db(), { ...input, format: 'jsonl', pageSize, now, write: (chunk) => void (jsonl += chunk) });
      return { tally: tallyCsv(rankTally(survey.config, tally, { top: 2 }), tally), exclusions, csv, jsonl };
    };
    const whole = await read();
    expect(whole.tally).toBe(PEER_CHECK_TALLY);
    expect(whole.exclusions.split('\r\n')).toHaveLength(7);
    for (const pageSize of [1, 2, 4]) expect(await read(pageSize)).toEqual(whole);
  });

  test('export: every ballot as CSV or JSON Lines, in the order received', async () => {
    const csv = await results(['export', 'peer-check']);
    expect(csv.code).toBe(0);
    const lines = csv.stdout.split('\r\n');
    expect(lines).toHaveLength(11);
    expect(lines.slice(1, 10).map((line) => line.split(',')[0])).toEqual(ids);
    expect(lines[1]).toContain(',c-2,Bo Lindqvist,c-3,Chen Wei,');
    expect(lines[8]).toContain('Dr. Bo Lindqvist,Medicine / Cardiology,c-2,Hana Sato,Medicine / Dermatology,wi-hana-sato,Mickey Mouse,Medicine / Cardiology,,');
    expect(csv.stderr).toContain('export: 9 of 9 ballots (100%)');

    const file = path.join(out, 'ballots.jsonl');
    const jsonl = await results(['export', 'peer-check', '--format', 'jsonl', '--out', file, '--quiet']);
    expect(jsonl).toMatchObject({ code: 0, stderr: '' });
    const ballots = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(ballots.map((b) => b.ballot_id)).toEqual(ids);
    expect(ballots[2]).toMatchObject({ link: 'personal', personal_secret: 'sec-ana-R7kw2Pq', answers: { 'name-first': 'Ana' } });
    expect(ballots[0].reservations).toEqual([{ field: 'faces', kind: 'faces', tile: 'cardiology', custom_text: null, status: 'reserved', outcome: 'held' }]);
  });

  test('confirm-reservation and release-reservation: the look-up shows confirmed tiles, and released ones are free', async () => {
    const before = await api.get('/api/survey/faces/peer-check');
    expect(before.body).toEqual({ taken: ['cardiology'], confirmed: ['Dr. Past, THE FACE OF Cardiology 2026'] });

    const confirmed = await results([
      'confirm-reservation',
      'peer-check',
      'faces',
      'cardiology',
      '--label',
      'Dr. Carl Lee, THE FACE OF Cardiology 2030',
      '--by',
      'tester',
      '--why',
      'paid in full',
    ]);
    expect(confirmed.stdout).toBe(`Confirmed cardiology for ballot ${ids[0]}; the confirmed list shows "Dr. Carl Lee, THE FACE OF Cardiology 2030".\n`);
    expect((await api.get('/api/survey/faces/peer-check')).body).toEqual({
      taken: ['cardiology'],
      confirmed: ['Dr. Past, THE FACE OF Cardiology 2026', 'Dr. Carl Lee, THE FACE OF Cardiology 2030'],
    });

    const released = await results(['release-reservation', 'peer-check', 'faces', 'Cardiology', '--by', 'tester', '--why', 'withdrew']);
    expect(released.stdout).toBe(`Released cardiology (held by ballot ${ids[0]}); the next ballot may take it.\n`);
    expect((await api.get('/api/survey/faces/peer-check')).body).toEqual({ taken: [], confirmed: ['Dr. Past, THE FACE OF Cardiology 2026'] });
    const next = await api.post(
      fields({ at: '', answers: { 'name-first': 'Una', 'name-last': 'Next' }, votes: { Cardiology: ['c-3'] }, faces: 'cardiology' }),
      { query: QUERY },
    );
    expect(next.body.reservations).toEqual([{ field: 'faces', tile: 'cardiology', status: 'reserved' }]);
  });

  test('a confirmed Experts tile is held past the five days', async () => {
    const t0 = '2030-03-01T12:00:00.000Z';
    const later = { 'X-Peervote-Now': '2030-03-20T12:00:00.000Z' };
    const ballot = fields({ at: t0, answers: { 'name-first': 'Eve', 'name-last': 'Expert' }, votes: { Cardiology: ['c-3'] } });
    ballot.push(['asktheexpert', 'is-coffee-good-for-me']);
    expect((await api.post(ballot, { query: QUERY, headers: { 'X-Peervote-Now': t0 } })).body.reservations[0].status).toBe('reserved');
    const confirmed = await results(['confirm-reservation', 'peer-check', 'experts', 'is-coffee-good-for-me', '--why', 'question approved']);
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect((await api.get('/api/survey/experts/peer-check', later)).body).toEqual({ taken: ['is-coffee-good-for-me'], confirmed: ['Is coffee good for me?'] });
  });
});

describe('the audit trail', () => {
  test('every decision above is in `audit`, oldest first, with who, what and why; a failed command adds nothing', async () => {
    const before = await results(['audit', 'peer-check']);
    expect(before.code, before.stderr).toBe(0);
    const rows = before.stdout
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
    // The columns of the trail before its hash chain, then who and through what, then the chain.
    expect(rows[0]).toEqual([
      'id',
      'at',
      'actor',
      'action',
      'subject',
      'reason',
      'details',
      'via',
      'actor_email',
      'role',
      'session',
      'project_id',
      'seq',
      'prev_hash',
      'hash',
    ]);
    expect(rows.slice(1).map((cells) => [cells[2], cells[3], cells[4]])).toEqual([
      ['tester', 'writeins resolve', 'bo lindqvist'],
      ['tester', 'writeins resolve', 'hana sato'],
      ['tester', 'writeins resolve', 'mickey mouse'],
      ['tester', 'confirm-reservation', 'faces/cardiology'],
      ['tester', 'release-reservation', 'faces/cardiology'],
      [expect.any(String), 'confirm-reservation', 'asktheexpert/is-coffee-good-for-me'],
    ]);
    expect(rows.slice(1).every((cells) => /^\d{4}-\d\d-\d\dT/.test(cells[1]))).toBe(true);
    expect(rows.slice(1, 6).map((cells) => cells[5])).toEqual([
      'checked against the state register',
      'checked against the state register',
      'checked against the state register',
      'paid in full',
      'withdrew',
    ]);

    const failed = await results(['confirm-reservation', 'peer-check', 'faces', 'oncology', '--by', 'tester', '--why', 'paid']);
    expect(failed.code).not.toBe(0);
    // publish writes the nominee file: on a copy of the surveys, which the other database's run shares.
    const surveys = path.join(out, 'surveys');
    cpSync(inject('surveysDir'), surveys, { recursive: true });
    const published = await results(['writeins', 'publish', 'peer-check', '--by', 'editor'], { SURVEYS_DIR: surveys });
    expect(published.code, published.stderr).toBe(0);
    const after = (await results(['audit', 'peer-check'])).stdout.trim().split('\r\n');
    expect(after.slice(0, before.stdout.trim().split('\r\n').length)).toEqual(before.stdout.trim().split('\r\n'));
    expect(after.slice(-1)[0]).toMatch(
      /,editor,writeins publish,,,"\{""nominee_ids"":\[""wi-hana-sato""\]\}",command line,,,,peer-check,7,[0-9a-f]{64},[0-9a-f]{64}$/,
    );
  });
});

describe('the tally-only data stays private', () => {
  test("a personal link's answer leaves out the person's nominee id", async () => {
    const { status, body } = await api.get('/api/survey/link/peer-check?secret=sec-ana-R7kw2Pq');
    expect(status).toBe(200);
    expect(body.prepopulated).toEqual({ 'name-first': 'Ana', 'name-last': 'Ferreira', 'medical-license': 'MD-1001', 'medical-practice': 'Northgate Clinic' });
  });
});

describe('bad input: one line naming the problem, a non-zero exit, nothing changed', () => {
  test.each([
    ['an unknown slug', ['tally', 'nope'], {}, 'There is no survey "nope"; the surveys are '],
    [
      'a slug of 100,000 characters with a terminal escape in it: quoted, escaped and cut',
      ['tally', `\u001b[2J${'x'.repeat(100_000)}`],
      {},
      `There is no survey "\\u001b[2J${'x'.repeat(53)}..."; the surveys are `,
    ],
    [
      'an unknown nominee id in a resolve',
      ['writeins', 'resolve', 'peer-check', '--name', 'Nobody Known', '--nominee', 'zz-404', '--why', 'same person'],
      {},
      'Nominee id "zz-404" is not on the nominee list of peer-check, nor added by a write-in decision.',
    ],
    ['an unknown tile', ['confirm-reservation', 'peer-check', 'faces', 'oncology', '--why', 'paid'], {}, 'peer-check has no Faces tile "oncology"'],
    [
      'a write-in decision without a reason',
      ['writeins', 'resolve', 'peer-check', '--name', 'Hana Sato', '--reject'],
      {},
      'writeins resolve is a decision: say why with --why',
    ],
    [
      'a reservation confirmed without a reason',
      ['confirm-reservation', 'peer-check', 'faces', 'dermatology'],
      {},
      'confirm-reservation is a decision: say why with --why',
    ],
    [
      'a reservation released without a reason',
      ['release-reservation', 'peer-check', 'faces', 'dermatology', '--why', '  '],
      {},
      'release-reservation is a decision: say why with --why',
    ],
    ['an unknown option', ['tally', 'peer-check', '--treshold', '3'], {}, "Unknown option '--treshold'"],
    ['a file that cannot be written', ['export', 'peer-check', '--out', '/nonexistent/ballots.csv', '--quiet'], {}, 'Cannot write /nonexistent/ballots.csv: '],
    [
      'a database that cannot be opened (SQLite)',
      ['tally', 'peer-check'],
      { DATABASE_URL: '', DATA_DIR: '/nonexistent/peervote' },
      'Cannot open the database: there is no SQLite file at /nonexistent/peervote/peervote.sqlite',
    ],
    [
      'a database that cannot be opened (PostgreSQL)',
      ['export', 'peer-check'],
      { DATABASE_URL: 'postgres://operator:secret@127.0.0.1:1/peervote' },
      'Cannot open the database postgres://operator:***@127.0.0.1:1/peervote: ',
    ],
  ])('%s', async (_, args, env, message) => {
    const before = await rowCounts(api.db());
    const decisions = await api.db().selectFrom('write_in_decisions').selectAll().execute();
    const { code, stdout, stderr } = await results(args, env);
    expect(code).not.toBe(0);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain(message);
    expect(stderr).not.toContain('secret@');
    expect(await rowCounts(api.db())).toEqual(before);
    expect(await api.db().selectFrom('write_in_decisions').selectAll().execute()).toEqual(decisions);
  });
});
