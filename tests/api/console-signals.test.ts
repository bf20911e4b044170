import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runResults } from '../support/results-cli.ts';
import type { Fields } from './helpers.ts';
import { ConsoleBrowser, operatorsYaml, startConsole, type ConsoleServer } from './console-helpers.ts';

// A survey's signals in the console, on both databases: the page of the latest look's clusters
// and their ballots for a reviewer and up (the voters' names for a manager and up; 403 for an
// auditor), paged by keyset; "Exclude" and "Restore" through the function `results exclude` and
// `include` call, signed in the audit trail, the tally and the receipt check following at once;
// and the acts that change nothing.

const ROLES = ['auditor', 'reviewer', 'manager', 'owner'] as const;
type Role = (typeof ROLES)[number];
const address = (role: Role) => `${role}@metrohealth.example`;
const ELSEWHERE = 'elsewhere@metrohealth.example';
const SURVEY = 'peer-check';
const PAGE = `/console/${SURVEY}/signals/`;
/** A survey whose look is made in the database: 45 clusters, the first naming 120 ballots. */
const PAGED = { slug: 'kitchen-sink', projectId: 'kitchen-sink' };
const STUFFER = '203.0.113.77';
const BOT = 'StuffingBot/1.0 (+scripted)';

let server: ConsoleServer;
const browsers = {} as Record<Role, ConsoleBrowser>;
let elsewhere: ConsoleBrowser;
/** The six ballots of one address in 25 seconds, which `results signals` finds; and three honest ones. */
const burst: string[] = [];
const receipts: string[] = [];
const honest: string[] = [];

const ballot = (first: string, nominee: string): Fields => [
  ['name-first', first],
  ['name-last', 'Voter'],
  ['nominations[Medicine][Cardiology][1]', nominee],
  ['affirm', 'on'],
];

const results = (...args: string[]) => runResults(args, { SURVEYS_DIR: server.surveysDir, DATA_DIR: server.api.dataDir, DATABASE_URL: server.api.databaseUrl });

beforeAll(async () => {
  // Behind one proxy, as signals.test.ts: the client's address is the last X-Forwarded-For entry.
  server = await startConsole(
    operatorsYaml({
      ...Object.fromEntries(ROLES.map((role) => [address(role), { [SURVEY]: role, [PAGED.slug]: role }])),
      [ELSEWHERE]: { [PAGED.slug]: 'owner' },
    }),
    { TRUST_PROXY: '1', SIGNALS_SECRET: '' },
  );
  // The operators enrol one after another (each a command-line run) while the ballots come in.
  const enrolled = (async () => {
    for (const role of ROLES) browsers[role] = await new ConsoleBrowser(server).enrolled(address(role));
    elsewhere = await new ConsoleBrowser(server).enrolled(ELSEWHERE);
  })();
  for (let i = 0; i < 6; i++) {
    const at = new Date(Date.parse('2030-02-01T10:00:00Z') + i * 5_000).toISOString();
    const answer = await server.api.post(ballot(`Made${i}`, 'c-5'), {
      query: { project_id: SURVEY, project_type: 'form' },
      headers: { 'X-Peervote-Now': at, 'X-Forwarded-For': `10.0.0.9, ${STUFFER}`, 'User-Agent': BOT },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    burst.push(answer.body.ballot_id);
    receipts.push(answer.body.receipt);
  }
  for (let i = 0; i < 3; i++) {
    const at = new Date(Date.parse('2030-02-02T10:00:00Z') + i * 86_400_000).toISOString();
    const answer = await server.api.post(ballot(`Real${i}`, 'c-2'), {
      query: { project_id: SURVEY, project_type: 'form' },
      headers: { 'X-Peervote-Now': at, 'X-Forwarded-For': `198.51.100.${i + 1}`, 'User-Agent': `Browser/${i}` },
    });
    expect(answer.status).toBe(201);
    honest.push(answer.body.ballot_id);
  }
  await enrolled;
  const look = await results('signals', SURVEY, '--quiet', '--by', 'analyst');
  expect(look.code, look.stderr).toBe(0);
}, 120_000);
afterAll(() => server?.stop());

const db = () => server.api.db();
const actPath = (id: string, act: 'exclude' | 'restore', slug = SURVEY) => `/api/console/surveys/${slug}/signals/ballots/${id}/${act}`;
/** What a refusal must leave as it was: the exclusions and the trail. */
const state = async () => ({
  exclusions: await db().selectFrom('ballot_exclusions').selectAll().orderBy('ballot_id').execute(),
  trail: await db().selectFrom('audit_log').select(['id', 'action', 'subject', 'actor']).orderBy('id').execute(),
});
const trailOf = (id: string) =>
  db().selectFrom('audit_log').select(['actor', 'actor_email', 'action', 'reason', 'via', 'role']).where('subject', '=', id).orderBy('seq').execute();
/** Votes counted for nominee c-5 in `results tally`'s CSV. */
const countedC5 = (csv: string) =>
  Number(
    csv
      .split('\r\n')
      .find((line) => line.includes(',c-5,'))
      ?.split(',')[6],
  );

describe('the page', () => {
  test.each(['reviewer', 'manager', 'owner'] as const)('a %s reads each cluster with its evidence and the ballots it names, received when', async (role) => {
    const page = await browsers[role].page(PAGE);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1>Signals: Peer Check</h1>');
    expect(page.body).toContain('Address burst: ');
    expect(page.body).toContain('6 ballots from one address, 2030-02-01 10:00:00–10:00:25 UTC');
    expect(page.body).toContain('by analyst');
    for (const id of burst) expect(page.body).toContain(`action="${actPath(id, 'exclude')}"`);
    expect(page.body).toContain('datetime="2030-02-01T10:00:05.000Z"');
    expect(page.body).toMatch(/<label for="reason-c\d+-[^"]+">Reason<\/label>/);
    expect(page.body).toMatch(/>\s*Exclude\s*<\/button>/);
    expect(page.headers.get('cache-control')).toBe('no-store');
    // The voter's name, never below manager.
    if (role === 'reviewer') expect(page.body).not.toContain('Made0');
    else expect(page.body).toContain('Made0 Voter');
  });

  test('an auditor is refused the page (403), and the survey’s page links it for a reviewer only', async () => {
    const page = await browsers.auditor.page(PAGE);
    expect(page.status).toBe(403);
    expect(page.body).toContain('Signals are for reviewers and up');
    expect(page.body).not.toContain(burst[0]);
    expect((await browsers.auditor.page(`/console/${SURVEY}/`)).body).not.toContain(`href="${PAGE}"`);
    expect((await browsers.reviewer.page(`/console/${SURVEY}/`)).body).toContain(`<a href="${PAGE}">Each cluster and the ballots it names</a>`);
  });

  test('a survey the operator has no role on, or none at all, is not found; without a session, sign-in', async () => {
    for (const slug of [SURVEY, 'no-such-survey']) {
      const page = await elsewhere.page(`/console/${slug}/signals/`);
      expect(page.status).toBe(404);
      expect(page.body).not.toContain('Peer Check');
    }
    const stranger = new ConsoleBrowser(server);
    expect((await stranger.page(PAGE)).headers.get('location')).toBe('/console/sign-in');
    expect((await stranger.post(actPath(burst[0], 'exclude'), { reason: 'x' })).status).toBe(401);
  });
});

describe('Exclude and Restore', () => {
  test('exclude, and the tally and the receipt check leave it out; restore, and it counts again; each signed in the trail', async () => {
    const [before, receiptBefore] = await Promise.all([results('tally', SURVEY, '--quiet'), results('receipt', SURVEY, receipts[2])]);
    expect(receiptBefore.stdout).toContain('The tally counts it');
    const id = burst[2];
    const excluded = await browsers.reviewer.post(actPath(id, 'exclude'), { reason: '  one of six from one address in 25 seconds ' });
    expect([excluded.status, excluded.body]).toEqual([200, { excluded: id, by: 'reviewer' }]);
    const [after, receipt] = await Promise.all([results('tally', SURVEY, '--quiet'), results('receipt', SURVEY, receipts[2])]);
    expect(countedC5(after.stdout)).toBe(countedC5(before.stdout) - 1);
    expect(receipt.stdout).toContain('The tally does not count it');
    expect(receipt.stdout).toContain('one of six from one address in 25 seconds');

    const page = await browsers.reviewer.page(`${PAGE}?excluded=${id}`);
    expect(page.body).toContain('The ballot is excluded: the tally leaves it out from now on.');
    expect(page.body).toMatch(/<strong>Excluded<\/strong> by reviewer at <time/);
    expect(page.body).toContain(`action="${actPath(id, 'restore')}"`);
    expect(page.body).toMatch(/>\s*Restore\s*<\/button>/);

    const restored = await browsers.manager.post(actPath(id, 'restore'), { reason: 'a colleague vouched for the voter' });
    expect([restored.status, restored.body]).toEqual([200, { restored: id, by: 'manager' }]);
    expect((await results('tally', SURVEY, '--quiet')).stdout).toBe(before.stdout);
    expect(await trailOf(id)).toEqual([
      {
        actor: 'reviewer',
        actor_email: address('reviewer'),
        action: 'exclude',
        reason: 'one of six from one address in 25 seconds',
        via: 'console',
        role: 'reviewer',
      },
      { actor: 'manager', actor_email: address('manager'), action: 'include', reason: 'a colleague vouched for the voter', via: 'console', role: 'manager' },
    ]);
  }, 60_000);

  test('a form posted without script comes back to the page at the ballot', async () => {
    const id = honest[0];
    const form = await browsers.owner.postForm(actPath(id, 'exclude'), { csrf: browsers.owner.csrf, reason: 'a test of the form', place: '', cluster: '3' });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe(`${PAGE}?excluded=${id}#c3-${id}`);
    expect((await trailOf(id)).map((entry) => [entry.actor, entry.action])).toEqual([['owner', 'exclude']]);
  });

  test('an auditor is refused with 403, one without a role 404, and nothing changes', async () => {
    const before = await state();
    const auditor = await browsers.auditor.post(actPath(burst[3], 'exclude'), { reason: 'I should not' });
    expect([auditor.status, auditor.body.error]).toEqual([403, 'forbidden']);
    expect((await browsers.auditor.postForm(actPath(burst[3], 'exclude'), { csrf: browsers.auditor.csrf, reason: 'I should not' })).status).toBe(403);
    const other = await elsewhere.post(actPath(burst[3], 'exclude'), { reason: 'not mine' });
    expect([other.status, other.body.error]).toEqual([404, 'unknown_survey']);
    expect(await state()).toEqual(before);
  });

  test.each([
    ['no reason', { reason: '   ' }, 400, 'invalid_reason', 'Enter a reason: say why this ballot should not count.'],
    ['no reason field at all', {}, 400, 'invalid_reason', 'Enter a reason'],
    ['a reason over 500 characters', { reason: 'x'.repeat(501) }, 400, 'invalid_reason', 'Reason must be 500 characters or fewer.'],
    ['a NUL in the reason', { reason: 'a\u0000b' }, 400, 'invalid_reason', 'NUL'],
  ])('%s: refused, naming the Reason box, and nothing changes', async (_, body, status, error, message) => {
    const before = await state();
    const answer = await browsers.reviewer.post(actPath(burst[3], 'exclude'), body);
    expect([answer.status, answer.body.error]).toEqual([status, error]);
    expect(answer.body.message).toContain(message);
    expect(answer.body.problems).toEqual([{ path: 'reason', message: answer.body.message }]);
    expect(await state()).toEqual(before);
  });

  test('an unknown ballot, one of another survey, a malformed id, a forged request: refused, nothing changes', async () => {
    const before = await state();
    const other = await server.api.post(ballot('Elsewhere', 'c-1'), { query: { project_id: PAGED.projectId, project_type: 'form' } });
    const [inOther] = await db().selectFrom('ballots').select('id').where('project_id', '=', PAGED.projectId).execute();
    const stored = await state();
    for (const id of ['0190e4c2-0000-7000-8000-000000000000', inOther?.id ?? other.body.ballot_id, 'not%20an%20id', 'x'.repeat(101)]) {
      const answer = await browsers.reviewer.post(actPath(id, 'exclude'), { reason: 'x' });
      expect([answer.status, answer.body.error], id).toEqual([404, 'unknown_ballot']);
    }
    expect((await browsers.reviewer.post(actPath(burst[3], 'exclude'), { reason: 'x' }, { csrf: false })).status).toBe(403);
    expect((await browsers.reviewer.post(actPath(burst[3], 'exclude'), { reason: 'x' }, { origin: 'https://evil.example' })).status).toBe(403);
    expect(await state()).toEqual(stored);
    expect(stored.trail).toEqual(before.trail);
  });

  test('the same act twice, or from two tabs at once, acts once and tells the other who did it', async () => {
    const id = burst[4];
    // Eight tabs of three operators press Exclude at once.
    const pressing = ['reviewer', 'manager', 'owner'] as const;
    const tabs = await Promise.all(Array.from({ length: 8 }, (_, tab) => browsers[pressing[tab % 3]].post(actPath(id, 'exclude'), { reason: `tab ${tab}` })));
    expect(tabs.map((answer) => answer.status).sort()).toEqual([200, ...Array(7).fill(409)]);
    const won = tabs.find((answer) => answer.status === 200)?.body.by as string;
    const lost = tabs.find((answer) => answer.status === 409);
    expect(lost?.body.error).toBe('excluded_already');
    expect(lost?.body.message).toMatch(new RegExp(`^This ballot was excluded already, by ${won} at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\. Their reason: `));
    expect((await trailOf(id)).map((entry) => entry.action)).toEqual(['exclude']);

    const again = await browsers.reviewer.post(actPath(id, 'exclude'), { reason: 'again' });
    expect([again.status, again.body.error]).toEqual([409, 'excluded_already']);

    const restores = await Promise.all(
      Array.from({ length: 8 }, (_, tab) => browsers[pressing[tab % 3]].post(actPath(id, 'restore'), { reason: `tab ${tab}` })),
    );
    expect(restores.map((answer) => answer.status).sort()).toEqual([200, ...Array(7).fill(409)]);
    const restorer = restores.find((answer) => answer.status === 200)?.body.by as string;
    expect(restores.find((answer) => answer.status === 409)?.body.message).toMatch(new RegExp(`^This ballot was restored already, by ${restorer} at `));
    const never = await browsers.reviewer.post(actPath(honest[1], 'restore'), { reason: 'nothing to restore' });
    expect([never.status, never.body.error, never.body.message]).toEqual([
      409,
      'not_excluded',
      'This ballot is not excluded: it counts already, and there is nothing to restore.',
    ]);
    expect((await trailOf(id)).map((entry) => entry.action)).toEqual(['exclude', 'include']);
  });

  test('the command line and the console share one rule: an exclusion made on one is told on the other', async () => {
    const id = burst[5];
    const cli = await results('exclude', SURVEY, id, '--why', 'from the terminal', '--by', 'editor');
    expect(cli.code, cli.stderr).toBe(0);
    const console = await browsers.reviewer.post(actPath(id, 'exclude'), { reason: 'from the page' });
    expect([console.status, console.body.message]).toEqual([
      409,
      expect.stringMatching(/^This ballot was excluded already, by editor at .*Their reason: from the terminal$/),
    ]);
    const restored = await browsers.reviewer.post(actPath(id, 'restore'), { reason: 'put back from the page' });
    expect(restored.status).toBe(200);
    const twice = await results('include', SURVEY, id, '--why', 'again', '--by', 'editor');
    expect(twice.stderr).toContain(`Ballot ${id} is not excluded; there is nothing to include. It was put back by reviewer at `);
  }, 30_000);
});

describe('paging', () => {
  const RUN = '0190e4c2-0000-7000-8000-0000000000aa';
  const OLD_RUN = '0190e4c1-0000-7000-8000-0000000000aa';
  const ballotId = (n: number) => `0190e4c2-0000-7000-8000-${String(n).padStart(12, '0')}`;
  const run = (id: string, at: string, clusters: number) => ({
    id,
    project_id: PAGED.projectId,
    ran_at: at,
    actor: 'bench',
    via: 'command line',
    thresholds: '{}',
    ballots_stored: 0,
    ballots_read: 200,
    clusters,
    ballots_named: 120,
  });

  test('a look recorded before looks kept their clusters says so', async () => {
    await db()
      .insertInto('signal_runs')
      .values(run(OLD_RUN, '2030-01-01T00:00:00.000Z', 3))
      .execute();
    const page = await browsers.reviewer.page(`/console/${PAGED.slug}/signals/`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('That look was recorded before looks kept their clusters');
  });

  test('45 clusters page 20 at a time by their place, and a cluster of 120 ballots 50 at a time by id', async () => {
    await db()
      .insertInto('signal_runs')
      .values(run(RUN, '2030-01-02T00:00:00.000Z', 45))
      .execute();
    await db()
      .insertInto('signal_run_clusters')
      .values(
        Array.from({ length: 45 }, (_, position) => ({
          run_id: RUN,
          position,
          kind: 'fast_ballot',
          score: 50 - position,
          evidence: `cluster number ${position}`,
          ballots: position === 0 ? 120 : 1,
        })),
      )
      .execute();
    await db()
      .insertInto('signal_run_ballots')
      .values([
        ...Array.from({ length: 120 }, (_, n) => ({ run_id: RUN, position: 0, ballot_id: ballotId(n) })),
        ...Array.from({ length: 44 }, (_, n) => ({ run_id: RUN, position: n + 1, ballot_id: ballotId(1000 + n) })),
      ])
      .execute();
    const path = `/console/${PAGED.slug}/signals/`;
    const evidence = (body: string) => [...body.matchAll(/cluster number (\d+)</g)].map((match) => Number(match[1]));
    const first = await browsers.reviewer.page(path);
    expect(evidence(first.body)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(first.body).toContain(`href="${path}?after=19" rel="next"`);
    expect(first.body).not.toContain('rel="prev"');
    // The first cluster shows its first ten ballots and leads to all of them.
    expect(first.body).toContain(ballotId(9));
    expect(first.body).not.toContain(ballotId(10));
    expect(first.body).toContain(`<a href="${path}?cluster=0">All 120 ballots of this cluster</a>`);
    expect(first.body).toContain('No longer stored');

    const second = await browsers.reviewer.page(`${path}?after=19`);
    expect(evidence(second.body)).toEqual(Array.from({ length: 20 }, (_, i) => i + 20));
    const third = await browsers.reviewer.page(`${path}?after=39`);
    expect(evidence(third.body)).toEqual([40, 41, 42, 43, 44]);
    expect(third.body).not.toContain('rel="next"');
    expect(third.body).toContain(`href="${path}?before=40" rel="prev"`);
    const back = await browsers.reviewer.page(`${path}?before=40`);
    expect(evidence(back.body)).toEqual(Array.from({ length: 20 }, (_, i) => i + 20));

    const cluster = await browsers.reviewer.page(`${path}?cluster=0`);
    const ids = (body: string) => [...body.matchAll(/class="refused-code" id="c0-[^"]+-title">\s*([^<\s]+)/g)].map((match) => match[1]);
    expect(ids(cluster.body)).toEqual(Array.from({ length: 50 }, (_, n) => ballotId(n)));
    expect(cluster.body).toContain(`href="${path}?cluster=0&amp;after=${ballotId(49)}" rel="next"`);
    const last = await browsers.reviewer.page(`${path}?cluster=0&after=${ballotId(99)}`);
    expect(ids(last.body)).toEqual(Array.from({ length: 20 }, (_, n) => ballotId(100 + n)));
    expect(last.body).not.toContain('rel="next"');

    // A place that is no place shows the first page, and never reaches the database as text it did not shape.
    for (const odd of ['?after=%27%3B--', '?cluster=-1', `?cluster=0&after=${'9'.repeat(200)}`]) {
      expect((await browsers.reviewer.page(`${path}${odd}`)).status, odd).toBe(200);
    }
  });
});
