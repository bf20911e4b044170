import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ConsoleBrowser, FOLLOWED, operatorsYaml, startConsole, type ConsoleServer } from './console-helpers.ts';
import { SoftAuthenticator } from '../support/passkey-authenticator.ts';
import { demoBallot, oneInstant } from './helpers.ts';

// Passkeys, enrolment links and sessions, over HTTP on both databases, with real WebAuthn answers
// from a software authenticator.

const OWNER = 'ana@metrohealth.example';
const SECOND = 'ben@metrohealth.example';
const THIRD = 'cy@metrohealth.example';
const NO_PASSKEY = 'dee@metrohealth.example';
const MINUTE = 60 * 1000;

let server: ConsoleServer;

beforeAll(async () => {
  server = await startConsole(
    operatorsYaml({
      [OWNER]: { 'top-doctors-demo': 'owner' },
      [SECOND]: { 'top-doctors-demo': 'auditor' },
      [THIRD]: { '*': 'reviewer' },
      [NO_PASSKEY]: { 'top-doctors-demo': 'manager' },
    }),
  );
});
afterAll(() => server?.stop());

/** The sign-in log, oldest first. */
const signIns = () => server.api.db().selectFrom('console_sign_ins').selectAll().orderBy('id').execute();

describe('a passkey from an enrolment link', () => {
  test('signs in; Sign out ends the session on the server; the passkey signs in again', async () => {
    const browser = new ConsoleBrowser(server);
    const link = await server.link(OWNER);
    expect(link).toMatch(new RegExp(`^${server.origin}/console/enrol/[A-Za-z0-9_-]{43}$`));

    const page = await browser.page(new URL(link).pathname);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Create a passkey');
    expect(page.body).toContain('Hello ana');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('content-security-policy')).not.toContain('unsafe-inline');

    const enrolled = await browser.enrol(link);
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(201);
    expect(enrolled.body).toEqual({ signed_in: true, next: '/console/' });
    const cookie = enrolled.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^pv_console=[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);

    await browser.readCsrf();
    const surveys = await browser.page('/console/');
    expect(surveys.body).toContain('Top Doctors');
    expect((await browser.page('/console/top-doctors-demo/')).status).toBe(200);

    // The link served once.
    const again = await browser.page(new URL(link).pathname);
    expect(again.status).toBe(410);
    expect(again.body).toContain('This enrolment link has been used');
    expect((await new ConsoleBrowser(server).enrol(link)).status).toBe(410);

    const used = browser.cookie;
    const out = await browser.postForm('/api/console/sign-out', { csrf: browser.csrf });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/console/sign-in?signed_out=1');
    expect(out.headers.get('set-cookie')).toMatch(/^pv_console=; Path=\/; Max-Age=0/);
    // The old cookie, sent again, opens nothing: the session ended on the server.
    const replay = new ConsoleBrowser(server);
    replay.cookie = used;
    expect((await replay.request('/api/console/surveys')).status).toBe(401);
    const redirected = await replay.page('/console/');
    expect(redirected.status).toBe(303);
    expect(redirected.headers.get('location')).toBe('/console/sign-in');

    const signedIn = await browser.signIn();
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    ownerKeys = browser.authenticator;
    expect(browser.cookie).not.toBe(used);
    expect((await browser.request('/api/console/surveys')).body.surveys.map((survey: { slug: string }) => survey.slug)).toEqual(['top-doctors-demo']);

    const log = await signIns();
    expect(log.filter((row) => row.operator === OWNER).map((row) => [row.way, row.outcome])).toEqual([
      ['enrolment', 'signed_in'],
      ['passkey', 'signed_in'],
    ]);
    // No secret in the log: neither cookie, nor its secret, nor the link's token.
    const written = JSON.stringify(log);
    for (const secret of [used.split('=')[1], browser.cookie.split('.')[1], link.split('/').pop()!]) expect(written).not.toContain(secret);
    // Only hashes are stored: no column of the sessions or links holds a secret.
    const stored = JSON.stringify([
      await server.api.db().selectFrom('console_sessions').selectAll().execute(),
      await server.api.db().selectFrom('console_enrolments').selectAll().execute(),
    ]);
    expect(stored).not.toContain(browser.cookie.split('.')[1]);
    expect(stored).not.toContain(link.split('/').pop()!);
  });

  test('an expired link, and one that a newer link replaced, are refused with a page that says so', async () => {
    const browser = new ConsoleBrowser(server);
    const first = await server.link(SECOND);
    const later = { now: new Date(Date.now() + 16 * MINUTE) };
    const expired = await browser.page(new URL(first).pathname, later);
    expect(expired.status).toBe(410);
    expect(expired.body).toContain('This enrolment link has expired');
    expect(expired.body).toContain('sign-in page');
    expect((await browser.enrol(first, later)).body.error).toBe('expired_link');

    const second = await server.link(SECOND);
    expect((await browser.page(new URL(first).pathname)).body).toContain('has expired');
    expect((await browser.page('/console/enrol/not-a-token')).status).toBe(404);
    expect((await browser.page('/console/enrol/not-a-token')).body).toContain('This enrolment link is not valid');
    expect((await browser.enrol(second)).status).toBe(201);
  });

  test('needs user verification: an answer without it is refused, and the link still works', async () => {
    const link = await server.link(THIRD);
    const browser = new ConsoleBrowser(server, new SoftAuthenticator({ origin: server.origin, userVerified: false }));
    const refused = await browser.enrol(link);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('not_enrolled');
    expect(browser.cookie).toBe('');
    browser.authenticator.settings.userVerified = true;
    browser.authenticator.held.length = 0;
    expect((await browser.enrol(link)).status).toBe(201);
  });

  test('a passkey no operator made here, or an answer for another origin, signs no one in, and the log says why', async () => {
    const stranger = new ConsoleBrowser(server);
    stranger.authenticator.register({ challenge: 'x', rp: { id: 'localhost' }, user: { id: 'eA' } });
    const unknown = await stranger.signIn();
    expect(unknown.status).toBe(401);
    expect(stranger.cookie).toBe('');

    // An operator added to the file while the server runs: the command line reads it at once, the server within a second.
    const added = 'eve@metrohealth.example';
    server.writeOperators(
      `${readFileSync(path.join(server.surveysDir, 'operators.yaml'), 'utf8')}  - email: ${added}\n    roles:\n      top-doctors-demo: auditor\n`,
    );
    const link = await server.link(added);
    const eve = new ConsoleBrowser(server);
    await expect.poll(async () => (await eve.page(new URL(link).pathname)).status, FOLLOWED).toBe(200);
    expect((await eve.enrol(link)).status).toBe(201);
    eve.authenticator.settings.origin = 'https://phish.example';
    const phished = await new ConsoleBrowser(server, eve.authenticator).signIn();
    expect(phished.status).toBe(401);

    const refused = (await signIns()).filter((row) => row.outcome === 'refused' && row.way === 'passkey');
    expect(refused.map((row) => [row.operator, row.reason])).toEqual([
      [null, 'unknown_passkey'],
      [added, 'not_verified'],
    ]);
    expect(refused.every((row) => row.client_hash?.length === 32)).toBe(true);
  });
});

test('a sign-in whose ids hold a NUL or another character no id has is refused, never a server error', async () => {
  const browser = new ConsoleBrowser(server, await ownerAuthenticator());
  const options = await browser.post('/api/console/sign-in/options');
  const response = browser.authenticator.authenticate(options.body.options);
  for (const [ceremony, id] of [
    [options.body.ceremony, 'abc\u0000def'],
    [options.body.ceremony, 'a b'],
    ['x\u0000y', (response as { id: string }).id],
    [{ not: 'text' }, 42],
  ]) {
    const answer = await browser.post('/api/console/sign-in', { ceremony, response: { ...response, id } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(401);
  }
  expect(browser.cookie).toBe('');
});

describe('a session', () => {
  test('ends after 30 minutes without a request, and 12 hours after it began however busy', async () => {
    const start = Date.now();
    const at = (minutes: number) => ({ now: new Date(start + minutes * MINUTE) });
    const idle = new ConsoleBrowser(server, await ownerAuthenticator());
    expect((await idle.signIn(at(0))).status).toBe(200);
    expect((await idle.request('/api/console/surveys', {}, at(29))).status).toBe(200);
    expect((await idle.request('/api/console/surveys', {}, at(58))).status).toBe(200);
    expect((await idle.request('/api/console/surveys', {}, at(89))).status).toBe(401);

    const busy = new ConsoleBrowser(server, idle.authenticator);
    expect((await busy.signIn(at(0))).status).toBe(200);
    for (let minutes = 25; minutes < 12 * 60; minutes += 25) expect((await busy.request('/api/console/surveys', {}, at(minutes))).status).toBe(200);
    expect((await busy.request('/api/console/surveys', {}, at(12 * 60 + 5))).status).toBe(401);
    expect((await busy.page('/console/', at(12 * 60 + 5))).status).toBe(303);
  });

  test('is refused for a change from another origin, or without its CSRF token, and nothing changes', async () => {
    const browser = new ConsoleBrowser(server, await ownerAuthenticator());
    expect((await browser.signIn()).status).toBe(200);
    await browser.readCsrf();
    const foreign = await browser.post('/api/console/sign-out', {}, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toBe('forbidden_origin');
    const crossSite = await browser.post('/api/console/sign-out', {}, { headers: { 'Sec-Fetch-Site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    const noOrigin = await browser.post('/api/console/sign-out', {}, { origin: null });
    expect(noOrigin.status).toBe(403);
    const noToken = await browser.post('/api/console/sign-out', {}, { csrf: false });
    expect(noToken.status).toBe(403);
    expect(noToken.body.error).toBe('bad_csrf_token');
    const wrongToken = await browser.postForm('/api/console/sign-out', { csrf: 'x'.repeat(43) });
    expect(wrongToken.status).toBe(403);
    expect(String(wrongToken.body)).toContain('This form is out of date');
    const otherSession = new ConsoleBrowser(server, browser.authenticator);
    expect((await otherSession.signIn()).status).toBe(200);
    await otherSession.readCsrf();
    expect((await browser.post('/api/console/sign-out', {}, { headers: { 'X-Console-CSRF': otherSession.csrf } })).status).toBe(403);
    // A GET changes nothing: the sign-out address takes POST only.
    expect((await browser.request('/api/console/sign-out')).status).toBe(405);
    expect((await browser.request('/api/console/surveys')).status).toBe(200);
  });

  test('Sign out everywhere ends every session of the operator', async () => {
    const authenticator = await ownerAuthenticator();
    const [here, there] = [new ConsoleBrowser(server, authenticator), new ConsoleBrowser(server, authenticator)];
    for (const browser of [here, there]) expect((await browser.signIn()).status).toBe(200);
    await here.readCsrf();
    const sessions = await here.page('/console/sessions/');
    expect(sessions.body).toContain('(this one)');
    expect((await here.postForm('/api/console/sign-out-everywhere', { csrf: here.csrf })).status).toBe(303);
    expect((await there.request('/api/console/surveys')).status).toBe(401);
    expect((await here.request('/api/console/surveys')).status).toBe(401);
  });
});

/** The owner's authenticator, enrolled by the first test (run in order). */
let ownerKeys: SoftAuthenticator | undefined;
async function ownerAuthenticator(): Promise<SoftAuthenticator> {
  if (!ownerKeys) throw new Error("The owner's passkey is made by the first test.");
  return ownerKeys;
}

describe('an enrolment link asked for on the sign-in page', () => {
  test('goes by mail to an operator without a passkey alone, and the answer is the same for every address', async () => {
    const mailDir = path.join(server.api.dataDir, 'mail', 'console');
    const mailed = () => {
      try {
        return readdirSync(mailDir).filter((name) => name.endsWith('.eml'));
      } catch {
        return [];
      }
    };
    const browser = new ConsoleBrowser(server);
    const answers = [];
    for (const email of ['nobody@metrohealth.example', OWNER, NO_PASSKEY.toUpperCase()]) {
      const answer = await browser.postForm('/api/console/enrolment-request', { email });
      answers.push([answer.status, answer.headers.get('location'), answer.body]);
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(answers[0].slice(0, 2)).toEqual([303, '/console/sign-in?asked=1']);
    await expect.poll(() => mailed().length, FOLLOWED).toBe(1);
    const message = readFileSync(path.join(mailDir, mailed()[0]), 'utf8');
    expect(message).toContain(`To: ${NO_PASSKEY}`);
    const link = /http:\/\/localhost:\d+\/console\/enrol\/[A-Za-z0-9_-]{43}/.exec(message.replace(/=\r?\n/g, ''))?.[0];
    expect(link).toBeDefined();
    expect((await new ConsoleBrowser(server).enrol(link!)).status).toBe(201);

    // Once they have a passkey, mail never signs them in again.
    await browser.postForm('/api/console/enrolment-request', { email: NO_PASSKEY });
    await expect.poll(async () => (await signIns()).filter((row) => row.way === 'link-request').length, FOLLOWED).toBe(4);
    expect(mailed()).toHaveLength(1);
    const requests = (await signIns()).filter((row) => row.way === 'link-request');
    expect(requests.map((row) => [row.operator, row.outcome, row.reason])).toEqual([
      [null, 'refused', 'unknown_address'],
      [OWNER, 'refused', 'has_passkey'],
      [NO_PASSKEY, 'mailed', null],
      [NO_PASSKEY, 'refused', 'has_passkey'],
    ]);
  });
});

describe('a broken operators file', () => {
  test('shuts the console to everyone, says so on the sign-in page, and ballots are still taken', async () => {
    const browser = new ConsoleBrowser(server, await ownerAuthenticator());
    expect((await browser.signIn()).status).toBe(200);
    const good = readFileSync(path.join(server.surveysDir, 'operators.yaml'), 'utf8');
    server.writeOperators(`${good}  - email: not an address\n`);
    await expect.poll(async () => (await browser.request('/api/console/surveys')).status, FOLLOWED).toBe(503);
    const page = await new ConsoleBrowser(server).page('/console/sign-in');
    expect(page.status).toBe(503);
    expect(page.body).toContain('The console is unavailable');
    expect(page.body).not.toContain('not an address');
    expect((await browser.page('/console/')).headers.get('location')).toBe('/console/sign-in');
    expect((await server.api.post(demoBallot(7), { headers: oneInstant() })).status).toBe(201);
    expect(server.api.log()).toMatch(
      /The console refuses every operator until .*operators\.yaml is mended: .*operators\.yaml:\d+:\d+ {2}operators\[\d\]\.email {2}/s,
    );

    server.writeOperators(good);
    await expect.poll(async () => (await browser.request('/api/console/surveys')).status, FOLLOWED).toBe(200);
  });
});

describe('the sign-in limits', () => {
  let limited: ConsoleServer;
  beforeAll(async () => {
    limited = await startConsole(operatorsYaml({ [OWNER]: { 'top-doctors-demo': 'owner' }, [NO_PASSKEY]: { 'top-doctors-demo': 'manager' } }), {
      CONSOLE_RATE_LIMIT_MAX: '3',
      TRUST_PROXY: '1',
    });
  });
  afterAll(() => limited?.stop());

  /** One instant for the whole of each test, so that the window cannot turn over between its requests, from a client of its own. */
  let at: Record<string, string>;
  beforeEach(() => {
    at = oneInstant();
  });
  const from = (address: string) => ({ headers: { ...at, 'X-Forwarded-For': address } });

  test('a client past its allowance of attempts is answered 429 with Retry-After; another client is not', async () => {
    const browser = new ConsoleBrowser(limited);
    for (let i = 0; i < 3; i++) expect((await browser.post('/api/console/sign-in/options', {}, from('10.1.0.1'))).status).toBe(200);
    const refused = await browser.post('/api/console/sign-in/options', {}, from('10.1.0.1'));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await browser.postForm('/api/console/enrolment-request', { email: NO_PASSKEY }, from('10.1.0.1'))).status).toBe(429);
    expect((await browser.post('/api/console/sign-in/options', {}, from('10.1.0.2'))).status).toBe(200);
  });

  test("failed sign-ins on one operator's passkey count against that operator, from any client", async () => {
    const owner = new ConsoleBrowser(limited);
    expect((await owner.enrol(await limited.link(OWNER), from('10.2.0.1'))).status).toBe(201);
    owner.authenticator.settings.origin = 'https://phish.example';
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await new ConsoleBrowser(limited, owner.authenticator).signIn(from(`10.2.1.${i}`))).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  test('an operator is mailed at most 3 links in 10 minutes, however many clients ask', async () => {
    const browser = new ConsoleBrowser(limited);
    for (let i = 0; i < 5; i++) expect((await browser.postForm('/api/console/enrolment-request', { email: NO_PASSKEY }, from(`10.3.0.${i}`))).status).toBe(303);
    const requests = () =>
      limited.api.db().selectFrom('console_sign_ins').select(['outcome', 'reason']).where('way', '=', 'link-request').orderBy('id').execute();
    await expect.poll(async () => (await requests()).length, FOLLOWED).toBe(5);
    // Each is decided after its answer, so the log's order is the order they were decided in.
    expect((await requests()).map((row) => row.reason ?? row.outcome).sort()).toEqual(['mailed', 'mailed', 'mailed', 'too_many_links', 'too_many_links']);
  });
});
