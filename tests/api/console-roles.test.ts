import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runResults } from '../support/results-cli.ts';
import { ConsoleBrowser, FOLLOWED, operatorsYaml, startConsole, type ConsoleServer } from './console-helpers.ts';

// Every console act as every role, on both databases: the server refuses what a role may not do
// (403, nothing changes) whatever a page shows, and shows a survey only to its operators.

const ROLES = ['auditor', 'reviewer', 'manager', 'owner'] as const;
type Role = (typeof ROLES)[number];
const address = (role: Role) => `${role}@metrohealth.example`;
/** An operator on the demo survey only, whom an owner of that survey may manage. */
const TARGET = 'target@metrohealth.example';
/** An operator of another survey, whom no one here may manage. */
const ELSEWHERE = 'elsewhere@metrohealth.example';
const MINUTE = 60 * 1000;

const OPERATORS = {
  ...Object.fromEntries(ROLES.map((role) => [address(role), { 'top-doctors-demo': role }])),
  [TARGET]: { 'top-doctors-demo': 'auditor' },
  [ELSEWHERE]: { 'members-choice': 'auditor' },
};

let server: ConsoleServer;
const browsers = {} as Record<Role, ConsoleBrowser>;
let target: ConsoleBrowser;
let elsewhere: ConsoleBrowser;

beforeAll(async () => {
  server = await startConsole(operatorsYaml(OPERATORS));
  for (const role of ROLES) browsers[role] = await new ConsoleBrowser(server).enrolled(address(role));
  target = await new ConsoleBrowser(server).enrolled(TARGET);
  elsewhere = await new ConsoleBrowser(server).enrolled(ELSEWHERE);
});
afterAll(() => server?.stop());

const enrolments = async (operator: string) =>
  (await server.api.db().selectFrom('console_enrolments').select('token_hash').where('operator', '=', operator).execute()).length;
const audit = () => server.api.db().selectFrom('audit_log').selectAll().where('project_id', '=', '*').orderBy('seq').execute();
const targetSessions = () =>
  server.api.db().selectFrom('console_sessions').select(['id', 'ended_at', 'ended_why']).where('operator', '=', TARGET).orderBy('id').execute();

describe('reading', () => {
  test.each(ROLES)('a %s sees the console, and the survey it has a role on', async (role) => {
    const browser = browsers[role];
    const home = await browser.page('/console/');
    expect(home.status).toBe(200);
    expect(home.body).toContain('href="/console/top-doctors-demo/"');
    expect(home.body).not.toContain('href="/console/members-choice/"');
    const page = await browser.page('/console/top-doctors-demo/');
    expect(page.status).toBe(200);
    expect(page.body).toContain(`Your role: ${role}`);
    expect(page.body).toContain('Ballots per day');
    expect((await browser.request('/api/console/surveys/top-doctors-demo')).body).toMatchObject({ slug: 'top-doctors-demo', role });
    expect((await browser.page('/console/sessions/')).status).toBe(200);
  });

  test.each(ROLES)('a %s is told a survey it has no role on is not there, as one that does not exist', async (role) => {
    const browser = browsers[role];
    for (const slug of ['members-choice', 'no-such-survey']) {
      const page = await browser.page(`/console/${slug}/`);
      expect(page.status).toBe(404);
      expect(page.body).not.toContain('Members');
      expect(page.body).toContain('There is nothing here for you');
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(page.headers.get('content-security-policy')).not.toContain('unsafe-inline');
      expect([page.headers.get('x-frame-options'), page.headers.get('cache-control')]).toEqual(['DENY', 'no-store']);
      expect((await browser.request(`/api/console/surveys/${slug}`)).status).toBe(404);
    }
  });

  test('any other address under /console/ is not found, with the same headers', async () => {
    const page = await browsers.owner.page('/console/a/b/c');
    expect(page.status).toBe(404);
    expect(page.body).toContain('There is nothing here for you');
    expect([page.headers.get('x-frame-options'), page.headers.get('cache-control')]).toEqual(['DENY', 'no-store']);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  test('an operator of another survey sees that one alone', async () => {
    expect((await elsewhere.request('/api/console/surveys')).body.surveys.map((survey: { slug: string }) => survey.slug)).toEqual(['members-choice']);
    expect((await elsewhere.page('/console/top-doctors-demo/')).status).toBe(404);
  });

  test.each(ROLES)("a %s is shown the owner's controls only when an owner", async (role) => {
    const page = await browsers[role].page('/console/top-doctors-demo/');
    const operators = await browsers[role].page('/console/operators/');
    if (role === 'owner') {
      expect(page.body).toContain('Manage operators');
      expect(page.body).toContain('href="/console/operators/"');
      expect(operators.status).toBe(200);
      expect(operators.body).toContain(TARGET);
      expect(operators.body).not.toContain(ELSEWHERE);
    } else {
      expect(page.body).not.toContain('Manage operators');
      expect(page.body).not.toContain('href="/console/operators/"');
      expect(operators.status).toBe(404);
    }
  });

  test('without a session, every page leads to the sign-in page and the JSON answers 401', async () => {
    const stranger = new ConsoleBrowser(server);
    for (const page of ['/console/', '/console/top-doctors-demo/', '/console/sessions/', '/console/operators/', '/console']) {
      const answer = await stranger.page(page);
      expect([answer.status, answer.headers.get('location')], page).toEqual([303, '/console/sign-in']);
      expect(answer.headers.get('cache-control')).toBe('no-store');
    }
    for (const path of ['/api/console/surveys', '/api/console/surveys/top-doctors-demo']) expect((await stranger.request(path)).status).toBe(401);
    expect((await stranger.post('/api/console/operators/target@metrohealth.example/end-sessions')).status).toBe(401);
    expect((await stranger.post('/api/console/sign-out')).status).toBe(401);
  });

  test('the console at 127.0.0.1 sends the browser to localhost, where its passkeys belong', async () => {
    const answer = await fetch(`${server.api.url}/console/sign-in?x=1`, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe(`${server.origin}/console/sign-in?x=1`);
  });
});

describe("another operator's sessions and enrolment link", () => {
  // In order: the refusals first, while the target is signed in; then the owner's acts.
  test.each(ROLES.filter((role) => role !== 'owner'))('a %s may not end them: 403, the target stays signed in, and nothing is written', async (role) => {
    const before = [await targetSessions(), await audit()];
    const answer = await browsers[role].post(`/api/console/operators/${encodeURIComponent(TARGET)}/end-sessions`);
    expect(answer.status).toBe(403);
    expect(answer.body.error).toBe('forbidden');
    // The Operators page's form, posted without its script, is refused the same.
    const form = await browsers[role].postForm(`/api/console/operators/${encodeURIComponent(TARGET)}/end-sessions`, { csrf: browsers[role].csrf });
    expect(form.status).toBe(403);
    expect(String(form.body)).toContain('Only an owner');
    expect((await target.request('/api/console/surveys')).status).toBe(200);
    expect([await targetSessions(), await audit()]).toEqual(before);
  });

  test.each(ROLES.filter((role) => role !== 'owner'))('a %s may not mail them a link: 403, and no link is made', async (role) => {
    const before = await enrolments(TARGET);
    const answer = await browsers[role].postForm(`/api/console/operators/${encodeURIComponent(TARGET)}/link`, { csrf: browsers[role].csrf });
    expect(answer.status).toBe(403);
    expect(String(answer.body)).toContain('Only an owner');
    expect(await enrolments(TARGET)).toBe(before);
  });

  test('an owner may not manage an operator of a survey they do not own, nor themselves', async () => {
    const owner = browsers.owner;
    expect((await owner.post(`/api/console/operators/${encodeURIComponent(ELSEWHERE)}/end-sessions`)).status).toBe(403);
    expect((await owner.post(`/api/console/operators/${encodeURIComponent(ELSEWHERE)}/link`)).status).toBe(403);
    expect((await owner.post(`/api/console/operators/${encodeURIComponent(address('owner'))}/end-sessions`)).status).toBe(403);
    expect((await owner.post('/api/console/operators/nobody%40metrohealth.example/link')).status).toBe(403);
    expect((await elsewhere.request('/api/console/surveys')).status).toBe(200);
  });

  // Six minutes after signing in, the passkey check of the sign-in has lapsed.
  const later = { now: new Date(Date.now() + 6 * MINUTE) };

  test('an owner ends them, with a passkey check in the last five minutes, and the audit trail says who', async () => {
    const owner = browsers.owner;
    // The act asks for the passkey again and changes nothing.
    const lapsed = await owner.post(`/api/console/operators/${encodeURIComponent(TARGET)}/end-sessions`, {}, later);
    expect(lapsed.status).toBe(403);
    expect(lapsed.body.error).toBe('reauthentication_required');
    expect((await target.request('/api/console/surveys')).status).toBe(200);

    expect((await owner.reauthenticate(later)).status).toBe(200);
    const ended = await owner.post(`/api/console/operators/${encodeURIComponent(TARGET)}/end-sessions`, {}, later);
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(ended.body).toEqual({ ended: 1 });
    expect((await target.request('/api/console/surveys')).status).toBe(401);
    const entry = (await audit()).at(-1)!;
    // Signed by the operator's name and address, their role, through the console, in a session kept as its hash alone.
    expect(entry).toMatchObject({
      actor: 'owner',
      actor_email: address('owner'),
      role: 'owner',
      via: 'console',
      action: 'operators end-sessions',
      subject: TARGET,
    });
    expect(entry.session).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(entry.details ?? '{}')).toEqual({ ended_sessions: 1 });
  });

  test("an owner ends them from the Operators page's form without its script: back to the page, which says so, and audited", async () => {
    expect((await target.signIn(later)).status).toBe(200);
    const page = await browsers.owner.page('/console/operators/', later);
    expect(page.body).toContain(`action="/api/console/operators/${encodeURIComponent(TARGET)}/end-sessions"`);
    const before = (await audit()).length;
    const posted = await browsers.owner.postForm(`/api/console/operators/${encodeURIComponent(TARGET)}/end-sessions`, { csrf: browsers.owner.csrf }, later);
    expect(posted.status).toBe(303);
    const location = posted.headers.get('location')!;
    expect(location).toMatch(/^\/console\/operators\/?\?ended=1$/);
    const shown = await browsers.owner.page(location, later);
    expect(shown.status).toBe(200);
    expect(shown.body).toContain('Their sessions are ended.');
    expect((await target.request('/api/console/surveys', {}, later)).status).toBe(401);
    expect((await targetSessions()).filter((row) => row.ended_at === null)).toEqual([]);
    const entries = await audit();
    expect(entries).toHaveLength(before + 1);
    expect(entries.at(-1)).toMatchObject({ actor: 'owner', role: 'owner', via: 'console', action: 'operators end-sessions', subject: TARGET });
    expect(JSON.parse(entries.at(-1)!.details ?? '{}')).toEqual({ ended_sessions: 1 });
  });

  test('an owner mails them a new link: audited, and it ends the sessions of an operator who has a passkey', async () => {
    expect((await target.signIn(later)).status).toBe(200);
    const before = await enrolments(TARGET);
    const answer = await browsers.owner.post(`/api/console/operators/${encodeURIComponent(TARGET)}/link`, { why: 'lost phone' }, later);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body).toMatchObject({ mailed: true, ended_sessions: 1 });
    expect(await enrolments(TARGET)).toBe(before + 1);
    expect((await target.request('/api/console/surveys', {}, later)).status).toBe(401);
    const entry = (await audit()).at(-1)!;
    expect(entry).toMatchObject({
      actor: 'owner',
      actor_email: address('owner'),
      role: 'owner',
      via: 'console',
      action: 'operators link',
      subject: TARGET,
      reason: 'lost phone',
    });
  });
});

describe('the operators file as it changes', () => {
  test('a role lowered counts from the next request, and an operator removed is signed out there', async () => {
    const owner = browsers.owner;
    expect((await owner.page('/console/operators/')).status).toBe(200);
    server.writeOperators(operatorsYaml({ ...OPERATORS, [address('owner')]: { 'top-doctors-demo': 'auditor' } }));
    await expect.poll(async () => (await owner.page('/console/operators/')).status, FOLLOWED).toBe(404);
    expect((await owner.post(`/api/console/operators/${encodeURIComponent(TARGET)}/end-sessions`)).status).toBe(403);
    expect((await owner.request('/api/console/surveys/top-doctors-demo')).body.role).toBe('auditor');

    server.writeOperators(operatorsYaml(Object.fromEntries(Object.entries(OPERATORS).filter(([email]) => email !== address('manager')))));
    await expect.poll(async () => (await browsers.manager.request('/api/console/surveys')).status, FOLLOWED).toBe(401);
    expect((await browsers.manager.page('/console/')).headers.get('location')).toBe('/console/sign-in');
    // Nobody else is affected.
    expect((await browsers.reviewer.request('/api/console/surveys')).status).toBe(200);
  });
});

describe('the command line', () => {
  const run = (...args: string[]) => runResults(args, { SURVEYS_DIR: server.surveysDir, DATA_DIR: server.api.dataDir, DATABASE_URL: server.api.databaseUrl });

  test('lists every operator with their roles, passkeys and open sessions', async () => {
    const listed = await run('operators');
    expect(listed.code, listed.stderr).toBe(0);
    const lines = listed.stdout.trim().split('\r\n');
    expect(lines[0]).toBe('email,name,roles,passkeys,passkey_last_used_at,open_sessions');
    const reviewer = lines.find((line) => line.startsWith(`${address('reviewer')},`));
    expect(reviewer).toMatch(/^reviewer@metrohealth\.example,reviewer,top-doctors-demo:reviewer,1,\d{4}-\d\d-\d\dT[\d:.]+Z,1$/);
  });

  test('asks why before a new link for an operator who has a passkey, then ends their sessions; the trail and the log say so', async () => {
    const refused = await run('operators', 'link', address('reviewer'), '--base-url', server.origin);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('has a passkey already: a new link is for a lost passkey');
    expect((await browsers.reviewer.request('/api/console/surveys')).status).toBe(200);

    const made = await run('operators', 'link', address('reviewer'), '--base-url', server.origin, '--why', 'lost phone', '--by', 'ops');
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toContain('It ended their session.');
    expect((await browsers.reviewer.request('/api/console/surveys')).status).toBe(401);
    const trail = await run('operators', 'audit');
    expect(
      trail.stdout
        .trim()
        .split('\r\n')
        .find((line) => line.includes(',ops,')),
    ).toMatch(
      /^[\w-]+,[^,]+,ops,operators link,reviewer@metrohealth\.example,lost phone,"\{""passkeys"":1,""ended_sessions"":1,.*\}",command line,,,,\*,\d+,[0-9a-f]{64},[0-9a-f]{64}$/,
    );
    expect(trail.stdout).not.toContain(made.stdout.trim().split('/').pop());

    const log = await run('operators', 'sign-ins');
    expect(log.stdout.split('\r\n')[0]).toBe('id,at,way,outcome,operator,reason,credential_id,session_id,client_hash,agent');
    expect(log.stdout).toContain(',enrolment,signed_in,reviewer@metrohealth.example,');
    expect((await run('operators', 'link', 'nobody@metrohealth.example')).stderr).toContain('is no operator of');
  });
});
