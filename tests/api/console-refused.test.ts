import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runResults } from '../support/results-cli.ts';
import { DEMO_QUERY, demoBallot, type Fields } from './helpers.ts';
import { ConsoleBrowser, operatorsYaml, startConsole, type ConsoleServer } from './console-helpers.ts';

// A survey's refused ballots in the console, on both databases: the page for every role (the
// voters' names and answers for a manager and up only), "Admit" for a reviewer and up through the
// function `results admit` calls, after a passkey check, signed in the audit trail; and the
// refusals that change nothing.

const ROLES = ['auditor', 'reviewer', 'manager', 'owner'] as const;
type Role = (typeof ROLES)[number];
const address = (role: Role) => `${role}@metrohealth.example`;
const ELSEWHERE = 'elsewhere@metrohealth.example';
const SURVEY = 'top-doctors-demo';
const PAGE = `/console/${SURVEY}/refused/`;
const MINUTE = 60 * 1000;
/** Seven minutes after the demo survey's close (2099-12-31T23:59:59Z): a ballot sent then is refused as late. */
const LATE = { 'X-Peervote-Now': '2100-01-01T00:06:59Z' };
/** A survey whose refused ballots are made in the database, enough for three pages. */
const PAGED = { slug: 'members-choice', projectId: 'members-choice-2027', count: 120 };

let server: ConsoleServer;
const browsers = {} as Record<Role, ConsoleBrowser>;
let elsewhere: ConsoleBrowser;

beforeAll(async () => {
  server = await startConsole(
    operatorsYaml({
      ...Object.fromEntries(ROLES.map((role) => [address(role), { [SURVEY]: role, [PAGED.slug]: 'auditor' }])),
      [ELSEWHERE]: { [PAGED.slug]: 'owner' },
    }),
  );
  for (const role of ROLES) browsers[role] = await new ConsoleBrowser(server).enrolled(address(role));
  elsewhere = await new ConsoleBrowser(server).enrolled(ELSEWHERE);
}, 120_000);
afterAll(() => server?.stop());

const db = () => server.api.db();
const refusedRow = (id: string) => db().selectFrom('refused_ballots').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const ballotCount = async () => Number((await db().selectFrom('ballots').select(db().fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const auditCount = async () => Number((await db().selectFrom('audit_log').select(db().fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
/** What a refusal must leave as it was: the refused row, the ballots, the trail. */
const state = async (id: string) => ({ row: await refusedRow(id), ballots: await ballotCount(), trail: await auditCount() });
const admitPath = (id: string, slug = SURVEY) => `/api/console/surveys/${slug}/refused/${id}/admit`;
const results = (...args: string[]) => runResults(args, { SURVEYS_DIR: server.surveysDir, DATA_DIR: server.api.dataDir, DATABASE_URL: server.api.databaseUrl });

let made = 0;
/** Sends a demo ballot after the close, which the API refuses (410) and keeps: its refused row's id. */
async function lateBallot(changes: (fields: Fields) => Fields = (fields) => fields): Promise<string> {
  const n = 1000 + made++;
  const fields = changes(demoBallot(n));
  const sent = await server.api.post(fields, { query: DEMO_QUERY, headers: LATE });
  expect(sent.status).toBe(410);
  const email = fields.find(([name]) => name === 'email')?.[1] as string;
  const row = await db().selectFrom('refused_ballots').select('id').where('fields', 'like', `%${email}%`).executeTakeFirstOrThrow();
  return row.id;
}

/** The demo ballot's email for ballot `n` (tests/support/ballots.mjs). */
const emailOf = (fields: Fields) => fields.find(([name]) => name === 'email')?.[1] as string;

describe('the page', () => {
  let id = '';
  let email = '';
  beforeAll(async () => {
    id = await lateBallot((fields) => ((email = emailOf(fields)), fields));
  });

  test.each(['reviewer', 'manager', 'owner'] as const)(
    'a %s reads each refused ballot with its reason in words, its time and what it holds, with the console headers',
    async (role) => {
      const page = await browsers[role].page(PAGE);
      expect(page.status).toBe(200);
      expect(page.body).toContain('<h1>Refused ballots: Top Doctors 2027</h1>');
      expect(page.body).toContain(`id="ballot-${id}"`);
      expect(page.body).toContain('Sent after the close');
      expect(page.body).toContain('2100-01-01');
      expect(page.body).toContain('7 minutes after the close');
      expect(page.body).toContain('8 nominations, 1 write-in');
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(page.headers.get('content-security-policy')).not.toContain('unsafe-inline');
      expect([page.headers.get('x-frame-options'), page.headers.get('cache-control')]).toEqual(['DENY', 'no-store']);
    },
  );

  test('an auditor is refused the page (403), the voter and the ballots left out, and a later page alike', async () => {
    for (const address of [PAGE, `${PAGE}?admitted=${id}`]) {
      const page = await browsers.auditor.page(address);
      expect(page.status).toBe(403);
      expect(page.body).toContain('<h1>Not for your role</h1>');
      expect(page.body).toContain('Refused ballots are for reviewers and up');
      expect(page.body).toContain(`href="/console/${SURVEY}/"`);
      expect(page.body).not.toContain(id);
      expect(page.body).not.toContain(email);
      expect(page.body).not.toContain(`action="${admitPath(id)}"`);
    }
  });

  test.each(['reviewer', 'manager', 'owner'] as const)('a %s is shown the Admit control, and the voter only from manager up', async (role) => {
    const page = await browsers[role].page(PAGE);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`action="${admitPath(id)}"`);
    expect(page.body).toMatch(/<label for="reason-[^"]+">Reason<\/label>/);
    expect(page.body).toMatch(/>\s*Admit\s*<\/button>/);
    // The voter's address and name, and their answers, never below manager.
    if (role === 'manager' || role === 'owner') {
      expect(page.body).toContain(email);
      expect(page.body).toContain('Its answers');
    } else {
      expect(page.body).not.toContain(email);
      expect(page.body).not.toContain('Its answers');
      expect(page.body).not.toContain('Medical license number');
    }
  });

  test('the survey’s page links its refused ballots count to the page for a reviewer, and shows an auditor the count alone', async () => {
    const page = await browsers.reviewer.page(`/console/${SURVEY}/`);
    expect(page.body).toMatch(new RegExp(`<a href="${PAGE}">[\\d,]+ refused ballots?</a>`));
    const auditor = await browsers.auditor.page(`/console/${SURVEY}/`);
    expect(auditor.body).toContain('Ballots refused for a rule, kept for review');
    expect(auditor.body).not.toContain(`href="${PAGE}"`);
  });

  test('a survey the operator has no role on, or none at all, is not found, as elsewhere in the console', async () => {
    for (const slug of [SURVEY, 'no-such-survey']) {
      const page = await elsewhere.page(`/console/${slug}/refused/`);
      expect(page.status).toBe(404);
      expect(page.body).toContain('There is nothing here for you');
      expect(page.body).not.toContain('Top Doctors');
    }
    const before = await state(id);
    const act = await elsewhere.post(admitPath(id), { reason: 'not mine' });
    expect([act.status, act.body.error]).toEqual([404, 'unknown_survey']);
    expect(await state(id)).toEqual(before);
  });

  test('without a session the page leads to sign-in and the act answers 401', async () => {
    const stranger = new ConsoleBrowser(server);
    expect((await stranger.page(PAGE)).headers.get('location')).toBe('/console/sign-in');
    expect((await stranger.post(admitPath(id), { reason: 'x' })).status).toBe(401);
  });
});

describe('Admit', () => {
  test('an auditor is refused with 403 and nothing changes, whatever the page shows', async () => {
    const id = await lateBallot();
    const before = await state(id);
    const json = await browsers.auditor.post(admitPath(id), { reason: 'I should not' });
    expect([json.status, json.body.error]).toEqual([403, 'forbidden']);
    const form = await browsers.auditor.postForm(admitPath(id), { csrf: browsers.auditor.csrf, reason: 'I should not' });
    expect(form.status).toBe(403);
    expect(String(form.body)).toContain('may admit a refused ballot');
    expect(await state(id)).toEqual(before);
  });

  test.each(['reviewer', 'manager', 'owner'] as const)(
    'a %s admits one: the ballot is stored and counted, signed in the trail with via console',
    async (role) => {
      const id = await lateBallot();
      const row = await refusedRow(id);
      const before = await ballotCount();
      const answer = await browsers[role].post(admitPath(id), { reason: `  Posted on time by mail, says the ${role}  ` });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body).toMatchObject({ admitted: id, ballot_id: expect.any(String), at: expect.any(String) });
      const ballotId = answer.body.ballot_id as string;

      // In the ballots as the API stores one: its answers, votes and write-in.
      expect(await ballotCount()).toBe(before + 1);
      const ballot = await db().selectFrom('ballots').selectAll().where('id', '=', ballotId).executeTakeFirstOrThrow();
      expect(ballot).toMatchObject({ project_id: SURVEY, link: 'public', personal_secret: null });
      const nominations = await db().selectFrom('nominations').select('nominee_id').where('ballot_id', '=', ballotId).execute();
      const sent = (JSON.parse(row.fields) as Array<[string, string]>).filter(([name]) => name.startsWith('nominations[')).map(([, value]) => value);
      expect(nominations.map((n) => n.nominee_id).sort()).toEqual(sent.sort());
      expect(await db().selectFrom('write_ins').select('name').where('ballot_id', '=', ballotId).execute()).toHaveLength(1);
      // `results receipt` finds it by its receipt, and says the tally counts it.
      const receipt = await results('receipt', SURVEY, String(ballot.receipt));
      expect(receipt.stdout).toContain('The tally counts it');

      expect(await refusedRow(id)).toMatchObject({ admitted_by: role, admit_reason: `Posted on time by mail, says the ${role}`, ballot_id: ballotId });
      const entry = await db().selectFrom('audit_log').selectAll().where('project_id', '=', SURVEY).orderBy('seq', 'desc').executeTakeFirstOrThrow();
      expect(entry).toMatchObject({
        actor: role,
        actor_email: address(role),
        role,
        via: 'console',
        action: 'admit',
        subject: id,
        reason: `Posted on time by mail, says the ${role}`,
      });
      expect(entry.session).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.parse(entry.details ?? '{}')).toEqual({ ballot_id: ballotId, refused_for: 'expired' });

      // The page says who, when and why.
      const page = await browsers.reviewer.page(PAGE);
      expect(page.body).toMatch(
        new RegExp(`<strong>Admitted</strong> by ${role} at [\\s\\S]*?${ballotId}[\\s\\S]*?Reason: Posted on time by mail, says the ${role}`),
      );
    },
  );

  test('without a passkey check in the last five minutes it is refused, saying one is needed; after one it goes on', async () => {
    const id = await lateBallot();
    const before = await state(id);
    const later = { now: new Date(Date.now() + 6 * MINUTE) };
    const lapsed = await browsers.reviewer.post(admitPath(id), { reason: 'checked by phone' }, later);
    expect([lapsed.status, lapsed.body.error]).toEqual([403, 'reauthentication_required']);
    expect(lapsed.body.message).toContain('passkey');
    expect(await state(id)).toEqual(before);
    expect((await browsers.reviewer.reauthenticate(later)).status).toBe(200);
    expect((await browsers.reviewer.post(admitPath(id), { reason: 'checked by phone' }, later)).status).toBe(200);
    // Back to the present for the tests that follow: a check now.
    expect((await browsers.reviewer.reauthenticate()).status).toBe(200);
  });

  test('without the CSRF token, or from another origin, it is refused and nothing changes', async () => {
    const id = await lateBallot();
    const before = await state(id);
    const reviewer = browsers.reviewer;
    expect((await reviewer.post(admitPath(id), { reason: 'x' }, { csrf: false })).body.error).toBe('bad_csrf_token');
    expect((await reviewer.post(admitPath(id), { reason: 'x' }, { origin: 'https://evil.example' })).body.error).toBe('forbidden_origin');
    expect((await reviewer.post(admitPath(id), { reason: 'x' }, { origin: null })).status).toBe(403);
    expect((await reviewer.postForm(admitPath(id), { reason: 'x' })).status).toBe(403);
    expect(await state(id)).toEqual(before);
  });

  test('a form posted without script admits and comes back to the page, which says so', async () => {
    const id = await lateBallot();
    const reviewer = browsers.reviewer;
    const posted = await reviewer.postForm(admitPath(id), { csrf: reviewer.csrf, reason: 'form without script', place: 'before=zzz' });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe(`${PAGE}?admitted=${id}#ballot-${id}`);
    const page = await reviewer.page(`${PAGE}?admitted=${id}`);
    expect(page.body).toContain('The ballot is admitted: it is counted from now on.');
    expect((await refusedRow(id)).admit_reason).toBe('form without script');
  });

  test('admitted twice, it is admitted once, and the second time says so', async () => {
    const id = await lateBallot();
    expect((await browsers.reviewer.post(admitPath(id), { reason: 'first' })).status).toBe(200);
    const after = await state(id);
    const again = await browsers.manager.post(admitPath(id), { reason: 'second' });
    expect([again.status, again.body.error]).toEqual([409, 'admitted_already']);
    expect(again.body.message).toMatch(
      /^This ballot was admitted already, by reviewer at \d{4}-\d\d-\d\d \d\d:\d\d UTC, as ballot [0-9a-f-]{36}: it is counted\.$/,
    );
    expect(await state(id)).toEqual(after);
  });

  test('admitted at once from two tabs, it is admitted once: one admits, the other is told', async () => {
    for (let round = 0; round < 3; round++) {
      const id = await lateBallot();
      const before = await ballotCount();
      const both = await Promise.all([
        browsers.reviewer.post(admitPath(id), { reason: 'tab one' }),
        browsers.reviewer.post(admitPath(id), { reason: 'tab two' }),
      ]);
      expect(both.map((answer) => answer.status).sort()).toEqual([200, 409]);
      expect(both.find((answer) => answer.status === 409)?.body.error).toBe('admitted_already');
      expect(await ballotCount()).toBe(before + 1);
      const trail = await db().selectFrom('audit_log').select('id').where('subject', '=', id).execute();
      expect(trail).toHaveLength(1);
    }
  });

  test('the same ballot admitted from the command line and from the console is stored the same', async () => {
    const id = await lateBallot();
    // Its twin: the same refused ballot, under another id (a ballot sent again is otherwise kept once).
    const row = await refusedRow(id);
    const twin = `${id.slice(0, -12)}${'f'.repeat(12)}`;
    await db()
      .insertInto('refused_ballots')
      .values({ ...row, id: twin, fingerprint: `${row.fingerprint}-twin` })
      .execute();
    const cli = await results('admit', SURVEY, id, '--why', 'the same reason', '--by', 'reviewer');
    expect(cli.code, cli.stderr).toBe(0);
    const console = await browsers.reviewer.post(admitPath(twin), { reason: 'the same reason' });
    expect(console.status).toBe(200);

    /** What a stored ballot holds, without its id, time and receipt. */
    const stored = async (refusedId: string) => {
      const ballotId = (await refusedRow(refusedId)).ballot_id!;
      const ballot = await db()
        .selectFrom('ballots')
        .select(['project_id', 'link', 'personal_secret', 'verified_email', 'replaced_by'])
        .where('id', '=', ballotId)
        .executeTakeFirstOrThrow();
      const of = (table: 'answers' | 'nominations' | 'write_ins' | 'reservations' | 'uploads'): Promise<Array<Record<string, unknown>>> =>
        (db() as Kysely<any>).selectFrom(table).selectAll().where('ballot_id', '=', ballotId).execute();
      const without = (rows: Array<Record<string, unknown>>) =>
        rows.map(({ ballot_id: _b, id: _i, ...rest }) => rest).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
      const { admitted_at: _at, ballot_id: _id, id: _refused, fingerprint: _f, admitted_by, admit_reason } = await refusedRow(refusedId);
      return {
        ballot,
        answers: without(await of('answers')),
        nominations: without(await of('nominations')),
        writeIns: without(await of('write_ins')),
        reservations: without(await of('reservations')),
        uploads: without(await of('uploads')),
        admission: { admitted_by, admit_reason },
      };
    };
    const fromCli = await stored(id);
    expect(fromCli.nominations).toHaveLength(8);
    expect(await stored(twin)).toEqual(fromCli);
    // The trail signs each as it came: the command line's --by, and the console's operator.
    const entries = await db()
      .selectFrom('audit_log')
      .select(['subject', 'via', 'actor', 'actor_email'])
      .where('subject', 'in', [id, twin])
      .orderBy('seq')
      .execute();
    expect(entries).toEqual([
      { subject: id, via: 'command line', actor: 'reviewer', actor_email: null },
      { subject: twin, via: 'console', actor: 'reviewer', actor_email: address('reviewer') },
    ]);
  });
});

describe('what changes nothing', () => {
  let id = '';
  beforeAll(async () => {
    id = await lateBallot();
  });

  test.each([
    { name: 'no reason', body: {}, message: 'Enter a reason' },
    { name: 'an empty reason', body: { reason: '' }, message: 'Enter a reason' },
    { name: 'a reason of spaces and control characters', body: { reason: ' \t\u0007 ' }, message: 'Enter a reason' },
    { name: 'a reason that is not text', body: { reason: ['a', 'b'] }, message: 'Enter a reason' },
    { name: 'a reason of 501 characters', body: { reason: 'x'.repeat(501) }, message: 'Reason must be 500 characters or fewer.' },
    { name: 'a reason holding a NUL', body: { reason: 'late\u0000ly' }, message: 'NUL character' },
  ])('$name: 400, the field named, nothing changed', async ({ body, message }) => {
    const before = await state(id);
    const answer = await browsers.reviewer.post(admitPath(id), body);
    expect([answer.status, answer.body.error]).toEqual([400, 'invalid_reason']);
    expect(answer.body.problems).toEqual([{ path: 'reason', message: expect.stringContaining(message) }]);
    expect(await state(id)).toEqual(before);
  });

  test('a reason of 100,000 characters, as JSON or a form: a clear 400, nothing changed', async () => {
    const before = await state(id);
    const json = await browsers.reviewer.post(admitPath(id), { reason: 'y'.repeat(100_000) });
    expect([json.status, json.body.error]).toEqual([400, 'bad_request']);
    const form = await browsers.reviewer.postForm(admitPath(id), { csrf: browsers.reviewer.csrf, reason: 'y'.repeat(100_000) });
    expect(form.status).toBe(400);
    expect(String(form.body)).toContain('too large');
    expect(await state(id)).toEqual(before);
  });

  test('a form without a reason gets a page that names the field', async () => {
    const before = await state(id);
    const form = await browsers.reviewer.postForm(admitPath(id), { csrf: browsers.reviewer.csrf, reason: '' });
    expect(form.status).toBe(400);
    expect(String(form.body)).toContain('Enter a reason: say why this ballot should be counted.');
    expect(await state(id)).toEqual(before);
  });

  test('an unknown id, a malformed one and another survey’s are 404', async () => {
    const before = await state(id);
    const elsewhereId = '01890000-0000-7000-8000-000000000000';
    for (const other of [elsewhereId, 'not-an-id', 'x'.repeat(5000), `${id.slice(0, -1)}.`]) {
      const answer = await browsers.owner.post(admitPath(other), { reason: 'try' });
      expect(answer.status, other.slice(0, 40)).toBe(404);
    }
    // A NUL or an encoded slash in the address is refused before any route runs.
    for (const other of [`${id}%00`, '..%2F..%2Fsessions']) expect((await browsers.owner.post(admitPath(other), { reason: 'try' })).status, other).toBe(400);
    // A refused ballot of a survey where the operator may only read.
    const other = await db()
      .insertInto('refused_ballots')
      .values({ ...(await refusedRow(id)), id: elsewhereId, project_id: PAGED.projectId, fingerprint: 'elsewhere' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await browsers.owner.post(admitPath(other.id, SURVEY), { reason: 'try' })).status).toBe(404);
    expect((await browsers.owner.post(admitPath(other.id, PAGED.slug), { reason: 'try' })).status).toBe(403);
    expect(await state(id)).toEqual(before);
    await db().deleteFrom('refused_ballots').where('id', '=', elsewhereId).execute();
  });

  test('a GET of the act changes nothing', async () => {
    const before = await state(id);
    expect((await browsers.owner.request(admitPath(id))).status).toBe(405);
    expect(await state(id)).toEqual(before);
  });
});

describe('pages', () => {
  /** The refused ballots' ids a page shows, in its order. */
  const ids = (html: string) => [...html.matchAll(/<li class="card refused-ballot" id="ballot-([0-9a-f-]{36})"/g)].map((found) => found[1]);
  const link = (html: string, rel: 'next' | 'prev') => new RegExp(`href="([^"]+)" rel="${rel}"`).exec(html)?.[1].replaceAll('&amp;', '&');
  let made: string[] = [];

  beforeAll(async () => {
    const template = await refusedRow(await lateBallot());
    const start = Date.parse('2027-02-01T00:00:00Z');
    // UUIDv7-shaped ids in time order, a second apart.
    made = Array.from({ length: PAGED.count }, (_, n) => {
      const hex = (start + n * 1000).toString(16).padStart(12, '0');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-${String(n).padStart(12, '0')}`;
    });
    await db()
      .insertInto('refused_ballots')
      .values(
        made.map((id, n) => ({
          ...template,
          id,
          project_id: PAGED.projectId,
          fingerprint: `paged-${n}`,
          received_at: new Date(start + n * 1000).toISOString(),
        })),
      )
      .execute();
  });

  test('50 a page, newest first, with Older and Newer links that walk every one once', async () => {
    const seen: string[][] = [];
    let next: string | undefined = `/console/${PAGED.slug}/refused/`;
    while (next) {
      const page = await elsewhere.page(next);
      expect(page.status).toBe(200);
      seen.push(ids(page.body));
      next = link(page.body, 'next');
    }
    expect(seen.map((page) => page.length)).toEqual([50, 50, 20]);
    expect(seen.flat()).toEqual(made.toReversed());

    // And back, page by page, from the oldest.
    const back: string[][] = [];
    let previous: string | undefined = `/console/${PAGED.slug}/refused/?before=${made[20]}`;
    while (previous) {
      const page = await elsewhere.page(previous);
      back.push(ids(page.body));
      previous = link(page.body, 'prev');
    }
    expect(back.map((page) => page.length)).toEqual([20, 50, 50]);
    expect(back.toReversed().flat()).toEqual(made.toReversed());
  });

  test('the totals count every refused ballot of the survey and those admitted', async () => {
    const page = await elsewhere.page(`/console/${PAGED.slug}/refused/`);
    expect(page.body).toMatch(/<dt>Refused<\/dt><dd>120<\/dd>/);
    expect(page.body).toMatch(/<dt>Admitted since<\/dt><dd>0<\/dd>/);
  });

  test('a mistyped place shows the newest page', async () => {
    const page = await elsewhere.page(`/console/${PAGED.slug}/refused/?before=${'z'.repeat(40)}&after=%00`);
    expect(ids(page.body)[0]).toBe(made.at(-1));
  });
});
