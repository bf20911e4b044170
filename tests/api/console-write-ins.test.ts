import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runResults } from '../support/results-cli.ts';
import { demoBallot, type Fields } from './helpers.ts';
import { ConsoleBrowser, operatorsYaml, startConsole, type ConsoleServer } from './console-helpers.ts';
import { writeInGroupId } from '../../src/server/intake/write-in-counts.repository.ts';
import { nameKey } from '../../src/survey/nominees/name-key.ts';

// A survey's write-ins in the console, on both databases: the queue for every role (voters'
// names for a manager and up only), the ballot's nominee search with the count before and after,
// "Attach", "Add as a new nominee" and "Undo" for a reviewer and up through the function
// `writeins resolve` calls, signed in the audit trail; the refusals that change nothing; and the
// tally of an attachment made here, byte for byte that of one made on the command line.

const ROLES = ['auditor', 'reviewer', 'manager', 'owner'] as const;
type Role = (typeof ROLES)[number];
const address = (role: Role) => `${role}@metrohealth.example`;
const ELSEWHERE = 'elsewhere@metrohealth.example';
const SURVEY = 'top-doctors-demo';
const PAGE = `/console/${SURVEY}/write-ins/`;
const CATEGORY = 'Surgery / Neurosurgery';
/** A nominee of the demo list, in Neurosurgery. */
const NOMINEE = { id: 'tdd-1169', name: 'Hannah Fischer-Choi' };
const act = (what: 'attach' | 'add' | 'undo', slug = SURVEY) => `/api/console/surveys/${slug}/write-ins/${what}`;
const idOf = (name: string) => writeInGroupId('Surgery', 'Neurosurgery', nameKey(name));

let server: ConsoleServer;
const browsers = {} as Record<Role, ConsoleBrowser>;
let elsewhere: ConsoleBrowser;

beforeAll(async () => {
  server = await startConsole(
    operatorsYaml({ ...Object.fromEntries(ROLES.map((role) => [address(role), { [SURVEY]: role }])), [ELSEWHERE]: { 'members-choice': 'owner' } }),
  );
  for (const role of ROLES) browsers[role] = await new ConsoleBrowser(server).enrolled(address(role));
  elsewhere = await new ConsoleBrowser(server).enrolled(ELSEWHERE);
}, 120_000);
afterAll(() => server?.stop());

let made = 0;
/** Sends a ballot (of a voter of its own) with one write-in in Neurosurgery, as written; the voter's last name. */
async function writeIn(on: ConsoleServer, spelling: string, n = 2000 + made++): Promise<string> {
  const fields: Fields = demoBallot(n).map(([name, value]) => [name, name === 'writeins[0][name]' ? spelling : value] as [string, string]);
  const sent = await on.api.post(fields);
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  return String(fields.find(([name]) => name === 'name-last')?.[1]);
}

const db = () => server.api.db();
/** What a refusal must leave as it was: the decisions and the trail. */
const state = async () => ({
  decisions: await db().selectFrom('write_in_decisions').selectAll().orderBy('id').execute(),
  trail: (await db().selectFrom('audit_log').select('id').execute()).length,
});
const results = (on: ConsoleServer, ...args: string[]) =>
  runResults(args, { SURVEYS_DIR: on.surveysDir, DATA_DIR: on.api.dataDir, DATABASE_URL: on.api.databaseUrl });
/** The counted votes of a nominee in Neurosurgery, as `results tally` prints them. */
async function counted(on: ConsoleServer, nominee = NOMINEE.id): Promise<{ csv: string; votes: number }> {
  const run = await results(on, 'tally', SURVEY, '--quiet');
  expect(run.code, run.stderr).toBe(0);
  const row = run.stdout.split('\r\n').find((line) => line.startsWith('Surgery,Neurosurgery,') && line.split(',')[3] === nominee);
  return { csv: run.stdout, votes: row ? Number(row.split(',')[6]) : 0 };
}
const group = (name: string, reason: string) => ({ category: CATEGORY, name, reason });

describe('the queue', () => {
  const voters: string[] = [];
  beforeAll(async () => {
    for (const spelling of ['Dr. Quentin Marsh', 'quentin  marsh', 'QUENTIN MARSH, MD']) voters.push(await writeIn(server, spelling));
  });

  test.each(['reviewer', 'manager', 'owner'] as const)(
    'a %s reads the group of three spellings as one, with its count and ballots, and the console headers',
    async (role) => {
      const page = await browsers[role].page(PAGE);
      expect(page.status).toBe(200);
      expect(page.body).toContain('<h1>Write-ins: Top Doctors 2027</h1>');
      const card = new RegExp(`<li class="card refused-ballot write-in-group" id="group-${idOf('Quentin Marsh')}"[\\s\\S]*?</li>`).exec(page.body)?.[0] ?? '';
      expect(card).toContain('in Surgery / Neurosurgery');
      expect(card).toMatch(/<dt>Write-ins<\/dt>\s*<dd>3<\/dd>/);
      for (const spelling of ['“Dr. Quentin Marsh” (1)', '“quentin  marsh” (1)', '“QUENTIN MARSH, MD” (1)']) expect(card).toContain(spelling);
      expect(card).toContain('Waiting: not counted until decided');
      expect(card).toContain('Its 3 ballots');
      expect(page.headers.get('content-security-policy')).not.toContain('unsafe-inline');
      expect([page.headers.get('x-frame-options'), page.headers.get('cache-control')]).toEqual(['DENY', 'no-store']);
      // The controls for each role that reads it; the voter's name from manager up.
      expect(card).toContain('Find a nominee');
      for (const voter of voters) {
        if (role === 'manager' || role === 'owner') expect(card).toContain(voter);
        else expect(card).not.toContain(voter);
      }
    },
  );

  test('the search on a group lists the ballot search’s matches, each with its count now and with the group', async () => {
    const { votes } = await counted(server);
    const page = await browsers.reviewer.page(`${PAGE}?group=${idOf('Quentin Marsh')}&q=${encodeURIComponent('Hannah Fischer')}`);
    expect(page.status).toBe(200);
    const match = new RegExp(`<strong>${NOMINEE.name}</strong>[\\s\\S]*?In Neurosurgery: (\\d+) votes? now, (\\d+) with this group\\.`).exec(page.body);
    expect(match, 'the match and its counts').not.toBeNull();
    expect(Number(match![1])).toBe(votes);
    expect(Number(match![2])).toBe(votes + 3);
    expect(page.body).toContain(`name="nominee" value="${NOMINEE.id}"`);
    expect(page.body).toMatch(/>\s*Attach\s*<\/button>/);
  });

  test('an auditor is refused the page (403), the queue and the search left out, and the survey’s page links it for a reviewer only', async () => {
    for (const address of [PAGE, `${PAGE}?group=${idOf('Quentin Marsh')}&q=Hannah`]) {
      const page = await browsers.auditor.page(address);
      expect(page.status).toBe(403);
      expect(page.body).toContain('<h1>Not for your role</h1>');
      expect(page.body).toContain('Write-ins are for reviewers and up');
      expect(page.body).toContain(`href="/console/${SURVEY}/"`);
      expect(page.body).not.toMatch(/quentin marsh/i);
      expect(page.body).not.toContain('with this group');
    }
    expect((await browsers.auditor.page(`/console/${SURVEY}/`)).body).not.toContain(`href="${PAGE}"`);
    expect((await browsers.reviewer.page(`/console/${SURVEY}/`)).body).toContain(`<a href="${PAGE}">Write-ins, grouped by name</a>`);
  });

  test('a survey the operator has no role on, or none at all, is not found; without a session the page leads to sign-in', async () => {
    for (const slug of [SURVEY, 'no-such-survey']) expect((await elsewhere.page(`/console/${slug}/write-ins/`)).status).toBe(404);
    const before = await state();
    const answer = await elsewhere.post(act('attach'), { ...group('Quentin Marsh', 'not mine'), nominee: NOMINEE.id });
    expect([answer.status, answer.body.error]).toEqual([404, 'unknown_survey']);
    expect(await state()).toEqual(before);
    const stranger = new ConsoleBrowser(server);
    expect((await stranger.page(PAGE)).headers.get('location')).toBe('/console/sign-in');
    expect((await stranger.post(act('attach'), {})).status).toBe(401);
  });
});

describe('Attach and Undo', () => {
  test('an auditor is refused with 403 and nothing changes', async () => {
    await writeIn(server, 'Auditor Tries');
    const before = await state();
    for (const what of ['attach', 'add', 'undo'] as const) {
      const answer = await browsers.auditor.post(act(what), { ...group('Auditor Tries', 'I should not'), nominee: NOMINEE.id });
      expect([answer.status, answer.body.error]).toEqual([403, 'forbidden']);
    }
    const form = await browsers.auditor.postForm(act('attach'), { csrf: browsers.auditor.csrf, ...group('Auditor Tries', 'no'), nominee: NOMINEE.id });
    expect(form.status).toBe(403);
    expect(String(form.body)).toContain('may decide on write-ins');
    expect(await state()).toEqual(before);
  });

  test.each(['reviewer', 'manager', 'owner'] as const)(
    'a %s attaches a group, signed in the trail; the tally counts it; a later spelling counts by itself; Undo takes it back',
    async (role) => {
      const name = `Ingrid ${role} Holm`;
      for (const spelling of [name, `Dr. ${name.toUpperCase()}`]) await writeIn(server, spelling);
      const before = await counted(server);
      const answer = await browsers[role].post(act('attach'), { ...group(`DR. ${name}`, `  Same licence, says the ${role}  `), nominee: NOMINEE.id });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body).toMatchObject({ decided: 'merge', nominee_id: NOMINEE.id, categories: [CATEGORY] });
      expect((await counted(server)).votes).toBe(before.votes + 2);
      const entry = await db().selectFrom('audit_log').selectAll().where('project_id', '=', SURVEY).orderBy('seq', 'desc').executeTakeFirstOrThrow();
      expect(entry).toMatchObject({
        actor: role,
        actor_email: address(role),
        role,
        via: 'console',
        action: 'writeins resolve',
        subject: nameKey(name),
        reason: `Same licence, says the ${role}`,
      });
      expect(JSON.parse(entry.details ?? '{}')).toEqual({ action: 'merge', nominee_id: NOMINEE.id, categories: [CATEGORY] });

      // A later write-in of the name, spelt another way, counts by itself, and the page says so.
      await writeIn(server, `${name.toLowerCase()},  MD`);
      expect((await counted(server)).votes).toBe(before.votes + 3);
      const page = await browsers.reviewer.page(`${PAGE}?group=${idOf(name)}&done=attach`);
      expect(page.body).toMatch(new RegExp(`Attached: “Dr\\. ${name.toUpperCase()}” in ${CATEGORY} counts for ${NOMINEE.name}, 3 write-ins`, 'i'));
      expect(page.body).toMatch(new RegExp(`Counts for ${NOMINEE.name} \\(${NOMINEE.id}\\)</strong>, by ${role} at`));
      expect(page.body).toContain('1 write-in received since was attached by itself.');
      expect(page.body).toContain('attached by itself</span>');

      const undone = await browsers[role].post(act('undo'), group(name, 'A different surgeon after all'));
      expect(undone.status, JSON.stringify(undone.body)).toBe(200);
      expect((await counted(server)).votes).toBe(before.votes);
      const last = await db().selectFrom('audit_log').selectAll().where('project_id', '=', SURVEY).orderBy('seq', 'desc').executeTakeFirstOrThrow();
      expect(last).toMatchObject({ actor: role, via: 'console', action: 'writeins undo', reason: 'A different surgeon after all' });
    },
  );

  test('a form posted without script attaches and comes back to the group, which says so', async () => {
    await writeIn(server, 'Form Without Script');
    const reviewer = browsers.reviewer;
    const posted = await reviewer.postForm(act('attach'), { csrf: reviewer.csrf, ...group('Form Without Script', 'by form'), nominee: NOMINEE.id });
    expect(posted.status).toBe(303);
    const id = idOf('Form Without Script');
    expect(posted.headers.get('location')).toBe(`${PAGE}?group=${id}&done=attach#group-${id}`);
    const page = await reviewer.page(String(posted.headers.get('location')).replace(/#.*/, ''));
    expect(page.body).toContain('Attached: “Form Without Script”');
    expect(page.body).toMatch(/>\s*Undo\s*<\/button>/);
  });

  test('Add as a new nominee counts the group for a nominee appended as writeins resolve --new does', async () => {
    await writeIn(server, 'Dr. Petra Novakova');
    const answer = await browsers.manager.post(act('add'), group('Dr. Petra Novakova', 'Not on the list yet'));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ decided: 'new', nominee_id: 'wi-petra-novakova' });
    expect((await counted(server, 'wi-petra-novakova')).votes).toBe(1);
    const listed = await results(server, 'writeins', SURVEY);
    expect(listed.stdout).toContain('decided: new nominee wi-petra-novakova (by manager');
  });

  test('without the CSRF token, or from another origin, it is refused and nothing changes', async () => {
    await writeIn(server, 'Origin Check');
    const before = await state();
    const body = { ...group('Origin Check', 'x'), nominee: NOMINEE.id };
    const reviewer = browsers.reviewer;
    expect((await reviewer.post(act('attach'), body, { csrf: false })).body.error).toBe('bad_csrf_token');
    expect((await reviewer.post(act('attach'), body, { origin: 'https://evil.example' })).body.error).toBe('forbidden_origin');
    expect((await reviewer.post(act('undo'), body, { origin: null })).status).toBe(403);
    expect((await reviewer.postForm(act('attach'), { ...body })).status).toBe(403);
    expect(await state()).toEqual(before);
  });

  test('twice, the second is told who decided it and nothing changes; at once, one decides and the other is told', async () => {
    await writeIn(server, 'Twice Told');
    const body = { ...group('Twice Told', 'first'), nominee: NOMINEE.id };
    expect((await browsers.reviewer.post(act('attach'), body)).status).toBe(200);
    const after = await state();
    const again = await browsers.owner.post(act('attach'), { ...body, reason: 'second' });
    expect([again.status, again.body.error]).toEqual([409, 'decided_already']);
    expect(again.body.message).toMatch(
      /^"Twice Told" in Surgery \/ Neurosurgery is counted for tdd-1169 already, decided by reviewer at \d{4}-\d\d-\d\d \d\d:\d\d UTC: nothing changed\.$/,
    );
    expect(await state()).toEqual(after);

    for (let round = 0; round < 3; round++) {
      const name = `At Once ${['Alpha', 'Beta', 'Gamma'][round]}`;
      await writeIn(server, name);
      const both = await Promise.all([
        browsers.reviewer.post(act('attach'), { ...group(name, 'tab one'), nominee: NOMINEE.id }),
        browsers.manager.post(act('attach'), { ...group(name, 'tab two'), nominee: NOMINEE.id }),
      ]);
      expect(both.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const rows = await db().selectFrom('write_in_decisions').select('id').where('name_key', '=', nameKey(name)).execute();
      expect(rows).toHaveLength(1);
      const undone = await Promise.all([browsers.reviewer.post(act('undo'), group(name, 'one')), browsers.owner.post(act('undo'), group(name, 'two'))]);
      expect(undone.map((answer) => answer.status).sort()).toEqual([200, 409]);
    }
  });
});

describe('decided since, and decided again', () => {
  test('Attach on a group decided otherwise since the page showed it is refused with 409, naming who decided, and nothing changes', async () => {
    await writeIn(server, 'Seen Waiting');
    expect((await browsers.manager.post(act('attach'), { ...group('Seen Waiting', 'first tab'), nominee: 'tdd-0001' })).status).toBe(200);
    const before = await state();
    const answer = await browsers.reviewer.post(act('attach'), { ...group('Seen Waiting', 'stale tab'), nominee: NOMINEE.id });
    expect([answer.status, answer.body.error]).toEqual([409, 'decided_otherwise']);
    expect(answer.body.message).toMatch(
      /^"Seen Waiting" in Surgery \/ Neurosurgery was attached to tdd-0001 meanwhile, by manager at \d{4}-\d\d-\d\d \d\d:\d\d UTC: Undo that decision first to make another\.$/,
    );
    const added = await browsers.reviewer.post(act('add'), group('Seen Waiting', 'stale tab'));
    expect([added.status, added.body.error]).toEqual([409, 'decided_otherwise']);
    expect(await state()).toEqual(before);
  });

  test('writeins resolve repeating a decision on record exits 0 and says whose it is; an undo of a write-in never decided exits 1 in one line', async () => {
    await writeIn(server, 'Said Twice');
    const resolve = (...how: string[]) =>
      results(server, 'writeins', 'resolve', SURVEY, '--name', 'said twice', '--category', CATEGORY, ...how, '--why', 'checked', '--by', 'ann');
    const none = await resolve('--undo');
    expect([none.code, none.stderr.trim()]).toEqual([1, 'No decision to undo on "said twice" in Surgery / Neurosurgery: it waits for one.']);
    expect((await resolve('--nominee', NOMINEE.id)).code).toBe(0);
    const before = await state();
    const again = await resolve('--nominee', NOMINEE.id);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(
      /^"said twice" in Surgery \/ Neurosurgery is counted for tdd-1169 already, decided by ann at \d{4}-\d\d-\d\d \d\d:\d\d UTC: nothing changed\.\n$/,
    );
    expect((await resolve('--undo')).code).toBe(0);
    const undoneAgain = await resolve('--undo');
    expect(undoneAgain.code, undoneAgain.stderr).toBe(0);
    expect(undoneAgain.stdout).toMatch(
      /^"said twice" in Surgery \/ Neurosurgery was undone already, by ann at .+ UTC, and waits for a decision: nothing changed\.\n$/,
    );
    expect((await state()).decisions).toHaveLength(before.decisions.length + 1);
  });
});

describe('what changes nothing', () => {
  beforeAll(async () => {
    await writeIn(server, 'Hostile Input');
  });
  const good = { ...group('Hostile Input', 'a reason'), nominee: NOMINEE.id };

  test.each([
    { name: 'no reason', what: 'attach', body: { ...good, reason: undefined }, error: 'invalid_reason', field: 'reason' },
    { name: 'a reason of spaces', what: 'attach', body: { ...good, reason: ' \t ' }, error: 'invalid_reason', field: 'reason' },
    { name: 'a reason of 501 characters', what: 'attach', body: { ...good, reason: 'x'.repeat(501) }, error: 'invalid_reason', field: 'reason' },
    { name: 'a reason holding a NUL', what: 'undo', body: { ...good, reason: 'late\u0000ly' }, error: 'invalid_reason', field: 'reason' },
    { name: 'no nominee', what: 'attach', body: { ...good, nominee: '' }, error: 'invalid_nominee', field: 'nominee' },
    { name: 'a nominee id holding a NUL', what: 'attach', body: { ...good, nominee: 'tdd\u00001169' }, error: 'invalid_nominee', field: 'nominee' },
    { name: 'a name holding a NUL', what: 'attach', body: { ...good, name: 'Hostile\u0000Input' }, error: 'invalid_write_in' },
    { name: 'a name of punctuation', what: 'undo', body: { ...good, name: '.,;' }, error: 'invalid_write_in' },
    { name: 'a category that is not text', what: 'attach', body: { ...good, category: ['a'] }, error: 'invalid_write_in' },
    {
      name: 'a new nominee’s name of 201 characters',
      what: 'add',
      body: { ...good, display_name: 'y'.repeat(201) },
      error: 'invalid_name',
      field: 'display_name',
    },
    { name: 'a new nominee’s name holding a NUL', what: 'add', body: { ...good, display_name: 'Ann\u0000Lee' }, error: 'invalid_name', field: 'display_name' },
    { name: 'a nominee not on the list', what: 'attach', body: { ...good, nominee: 'zz-404' }, error: 'not_decided' },
    { name: 'a write-in no voter wrote', what: 'attach', body: { ...good, name: 'Nobody Wrote This' }, error: 'not_decided' },
    { name: 'a category of another survey', what: 'attach', body: { ...good, category: 'Nowhere / Else' }, error: 'not_decided' },
  ] as const)('$name: 400, nothing changed', async ({ what, body, error, ...rest }) => {
    const before = await state();
    const answer = await browsers.reviewer.post(act(what), body as Record<string, unknown>);
    expect([answer.status, answer.body.error], JSON.stringify(answer.body)).toEqual([400, error]);
    if ('field' in rest) expect(answer.body.problems).toEqual([{ path: rest.field, message: expect.any(String) }]);
    expect(await state()).toEqual(before);
  });

  test('a reason or a name of 100,000 characters, as JSON or a form: a clear 400, nothing changed', async () => {
    const before = await state();
    for (const body of [
      { ...good, reason: 'y'.repeat(100_000) },
      { ...good, display_name: 'z'.repeat(100_000) },
    ]) {
      const json = await browsers.reviewer.post(act('add'), body);
      expect([json.status, json.body.error]).toEqual([400, 'bad_request']);
      const form = await browsers.reviewer.postForm(act('add'), { csrf: browsers.reviewer.csrf, ...body });
      expect(form.status).toBe(400);
      expect(String(form.body)).toContain('too large');
    }
    expect(await state()).toEqual(before);
  });

  test('undo with nothing to undo is 409, and a GET of an act changes nothing', async () => {
    const before = await state();
    const answer = await browsers.owner.post(act('undo'), good);
    expect([answer.status, answer.body.error]).toEqual([409, 'decided_already']);
    expect((await browsers.owner.request(act('attach'))).status).toBe(405);
    expect(await state()).toEqual(before);
  });
});

describe('pages', () => {
  test('50 groups a page, waiting first then the most written; Next and Previous walk every group once, both ways', async () => {
    for (let n = 0; n < 60; n++) await writeIn(server, `Paging Number${n}`);
    const walk = async (start: string, rel: 'next' | 'prev') => {
      const pages: string[][] = [];
      let at: string | undefined = start;
      while (at) {
        const page = await browsers.reviewer.page(at);
        expect(page.status).toBe(200);
        pages.push([...page.body.matchAll(/<li class="card refused-ballot write-in-group" id="group-([0-9a-f]{16})"/g)].map((m) => m[1]));
        const link = new RegExp(`<a class="button button-secondary" href="([^"]+)" rel="${rel}">`).exec(page.body)?.[1];
        at = link?.replaceAll('&amp;', '&');
      }
      return pages;
    };
    const forward = await walk(PAGE, 'next');
    const total = await db()
      .selectFrom('write_in_groups')
      .where('project_id', '=', SURVEY)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(forward.slice(0, -1).every((page) => page.length === 50)).toBe(true);
    expect(forward.flat()).toHaveLength(Number(total.n));
    expect(new Set(forward.flat()).size).toBe(Number(total.n));
    const first = await browsers.reviewer.page(PAGE);
    expect(first.body).toContain(`Groups 1–50 of ${Number(total.n)}`);
    // The waiting groups come first, the most written first among them.
    const decided = new Set(
      (await db().selectFrom('write_in_groups').select('id').where('project_id', '=', SURVEY).where('decided', '=', 1).execute()).map((row) => row.id),
    );
    const flags = forward.flat().map((id) => decided.has(id));
    expect(flags.indexOf(true)).toBe(flags.lastIndexOf(false) + 1);
    const last = forward.at(-1)!;
    const backward = await walk(`${PAGE}?before=${last[0]}`, 'prev');
    expect([...backward.reverse().flat(), ...last]).toEqual(forward.flat());
  }, 60_000);
});

describe('the console and the command line', () => {
  let viaConsole: ConsoleServer;
  let viaCommand: ConsoleServer;
  afterAll(async () => {
    await viaConsole?.stop();
    await viaCommand?.stop();
  });

  test('the same attachment made in the console and with writeins resolve gives the same tally, byte for byte', async () => {
    const operators = operatorsYaml({ [address('reviewer')]: { [SURVEY]: 'reviewer' } });
    [viaConsole, viaCommand] = await Promise.all([startConsole(operators), startConsole(operators)]);
    const spellings = ['Dr. Hannah Weiss', 'hannah  weiss', 'HANNAH WEISS, MD', 'Mona Vale'];
    for (const on of [viaConsole, viaCommand]) for (const [n, spelling] of spellings.entries()) await writeIn(on, spelling, 3000 + n);
    const [beforeConsole, beforeCommand] = [await counted(viaConsole), await counted(viaCommand)];
    expect(beforeConsole.csv).toBe(beforeCommand.csv);

    const reviewer = await new ConsoleBrowser(viaConsole).enrolled(address('reviewer'));
    const answer = await reviewer.post(act('attach'), { ...group('hannah weiss', 'Same licence number'), nominee: NOMINEE.id });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const cli = await results(
      viaCommand,
      'writeins',
      'resolve',
      SURVEY,
      '--name',
      'Dr. Hannah Weiss',
      '--category',
      CATEGORY,
      '--nominee',
      NOMINEE.id,
      '--why',
      'Same licence number',
      '--by',
      'reviewer',
    );
    expect(cli.code, cli.stderr).toBe(0);

    const [afterConsole, afterCommand] = [await counted(viaConsole), await counted(viaCommand)];
    expect(afterConsole.votes).toBe(beforeConsole.votes + 3);
    expect(afterConsole.csv).toBe(afterCommand.csv);
    // The decisions are the same but for who signed them, and how.
    const decision = async (on: ConsoleServer) =>
      await on.api
        .db()
        .selectFrom('write_in_decisions')
        .select(['name_key', 'category_group', 'subcategory', 'action', 'nominee_id', 'note', 'decided_by'])
        .execute();
    expect(await decision(viaConsole)).toEqual(await decision(viaCommand));
  }, 120_000);
});
