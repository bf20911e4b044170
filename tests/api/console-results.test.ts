import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Fields } from './helpers.ts';
import { ConsoleBrowser, operatorsYaml, startConsole, type ConsoleServer } from './console-helpers.ts';
import { runResults } from '../support/results-cli.ts';
import { PEER_CHECK_BALLOTS, type HandBallot } from '../support/peer-check-ballots.ts';

// A survey's results page in the console, on both databases: for owners only; sealed until the
// close, with no count, but for the early look one owner asks for and another approves (never the
// same, never after 24 hours), audited; after the close, the count of `results tally` to the byte,
// and Publish, which writes the folder `results publish` writes, to the byte.

const ROLES = ['auditor', 'reviewer', 'manager'] as const;
const OWNERS = ['ana', 'ben'] as const;
type Who = (typeof ROLES)[number] | (typeof OWNERS)[number];
const address = (who: Who) => `${who}@metrohealth.example`;
/** Sealed, open until 2099: its count is shut. */
const SEALED = 'peer-check';
/** Sealed, closed at the start of 2026: its count is open, and it may be published. */
const CLOSED = 'peer-closed';
const page = (slug: string) => `/console/${slug}/results/`;
const api = (slug: string, rest: string) => `/api/console/surveys/${slug}/results/${rest}`;
const MINUTE = 60 * 1000;

let server: ConsoleServer;
const browsers = {} as Record<Who, ConsoleBrowser>;
const db = () => server.api.db();
const results = (...args: string[]) => runResults(args, { SURVEYS_DIR: server.surveysDir, DATA_DIR: server.api.dataDir, DATABASE_URL: server.api.databaseUrl });

/** The ballot's form fields, as peer-check's page sends them. */
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

/** Sends peer-check's hand-made ballots to a survey, each at `at` plus a minute a ballot. */
async function vote(projectId: string, at: string): Promise<void> {
  for (const [n, ballot] of PEER_CHECK_BALLOTS.entries()) {
    const secret = ballot.link === 'demo' ? 'demo' : ballot.secret;
    const query = { project_id: projectId, project_type: 'form', ...(secret ? { secret } : {}) };
    const sent = await server.api.post(fields(ballot), { query, headers: { 'X-Peervote-Now': new Date(Date.parse(at) + n * MINUTE).toISOString() } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  }
}

beforeAll(async () => {
  server = await startConsole(
    operatorsYaml(Object.fromEntries([...ROLES, ...OWNERS].map((who) => [address(who), { [SEALED]: role(who), [CLOSED]: role(who) }]))),
    {},
    (surveys) => {
      const yaml = path.join(surveys, SEALED, 'survey.yaml');
      const base = readFileSync(yaml, 'utf8');
      writeFileSync(yaml, `${base}\nresults:\n  sealed: true\n`);
      cpSync(path.join(surveys, SEALED), path.join(surveys, CLOSED), { recursive: true });
      writeFileSync(
        path.join(surveys, CLOSED, 'survey.yaml'),
        `${base.replace('project_id: peer-check', `project_id: ${CLOSED}`).replace('expiration_date: "2099-12-31"', 'expiration_date: "2026-01-31"')}\nresults:\n  sealed: true\n`,
      );
    },
  );
  for (const who of [...ROLES, ...OWNERS]) browsers[who] = await new ConsoleBrowser(server).enrolled(address(who));
  await vote(SEALED, new Date(Date.now() - 60 * MINUTE).toISOString());
  await vote(CLOSED, '2026-01-02T09:00:00Z');
}, 120_000);
afterAll(() => server?.stop());

function role(who: Who): string {
  return (OWNERS as readonly string[]).includes(who) ? 'owner' : who;
}

const trail = (projectId: string) => db().selectFrom('audit_log').selectAll().where('project_id', '=', projectId).orderBy('seq').execute();
const requests = () => db().selectFrom('unseal_requests').selectAll().orderBy('asked_at').execute();
const counts = () => db().selectFrom('results_counts').select(['id', 'kind', 'status', 'request_id']).orderBy('started_at').execute();
/** Waits until no count of the survey runs in the server (a count's process starts in a second or two, and counts these ballots in less). */
async function settled(): Promise<void> {
  await expect
    .poll(async () => (await db().selectFrom('results_counts').select('id').where('status', '=', 'running').execute()).length, {
      timeout: 30_000,
      interval: 100,
    })
    .toBe(0);
}
/** What a refusal must leave as it was. */
const state = async () => ({ requests: await requests(), counts: await counts(), trail: (await trail(SEALED)).length });

describe('who may', () => {
  test.each(ROLES)('a %s is refused the page (403) and every act, and nothing changes', async (who) => {
    const before = await state();
    for (const slug of [SEALED, CLOSED]) {
      const shown = await browsers[who].page(page(slug));
      expect(shown.status).toBe(403);
      expect(shown.body).toContain('Results are for owners');
      expect(shown.body).not.toContain('Standings');
    }
    const acts = [
      browsers[who].post(api(SEALED, 'unseal'), { reason: 'let me see' }),
      browsers[who].post(api(CLOSED, 'count')),
      browsers[who].post(api(CLOSED, 'publish')),
      browsers[who].request(api(CLOSED, 'download')),
    ];
    for (const answer of await Promise.all(acts)) expect([answer.status, answer.body.error]).toEqual([403, 'forbidden']);
    expect(await state()).toEqual(before);
  });

  test('an owner opens the page; the survey’s page links to it for owners only', async () => {
    expect((await browsers.ana.page(page(SEALED))).status).toBe(200);
    expect((await browsers.ana.page(`/console/${SEALED}/`)).body).toContain(`<a href="${page(SEALED)}">Results</a>`);
    expect((await browsers.manager.page(`/console/${SEALED}/`)).body).not.toContain(`href="${page(SEALED)}"`);
  });

  test('without a session the page leads to sign-in and an act answers 401', async () => {
    const stranger = new ConsoleBrowser(server);
    expect((await stranger.page(page(SEALED))).headers.get('location')).toBe('/console/sign-in');
    expect((await stranger.post(api(SEALED, 'unseal'), { reason: 'x' })).status).toBe(401);
  });
});

describe('sealed until the close', () => {
  test('the page says until when, and shows no count; a Count is refused', async () => {
    const shown = await browsers.ana.page(page(SEALED));
    expect(shown.body).toContain('Sealed until the end of 31 December 2099 (UTC)');
    expect(shown.body).not.toContain('Standings');
    expect(shown.body).not.toMatch(/>\s*Count\s*</);
    expect(shown.body).not.toContain('Cardiology /');
    expect(shown.body).toMatch(/<label for="unseal-reason">Reason<\/label>/);
    expect(shown.body).toMatch(/>\s*Ask to unseal\s*<\/button>/);
    const before = await state();
    const count = await browsers.ana.post(api(SEALED, 'count'));
    expect([count.status, count.body.error]).toEqual([409, 'sealed']);
    expect((await browsers.ana.request(api(SEALED, 'counts/00000000-0000-7000-8000-000000000000/csv'))).status).toBe(409);
    expect(await state()).toEqual(before);
  });

  test('asking needs a reason, said under the Reason box', async () => {
    const before = await state();
    const bare = await browsers.ana.post(api(SEALED, 'unseal'), { reason: '   ' });
    expect([bare.status, bare.body.error]).toEqual([400, 'invalid_reason']);
    expect(bare.body.problems).toEqual([{ path: 'reason', message: 'Enter a reason: say why the count should be seen before the close.' }]);
    expect(await state()).toEqual(before);
  });

  let asked = '';
  test('one owner asks, with a reason: audited with their name, and the page says another must approve', async () => {
    const answer = await browsers.ana.post(api(SEALED, 'unseal'), { reason: 'Interim count for the board' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    asked = answer.body.request;
    const row = (await requests()).find((one) => one.id === asked);
    expect(row).toMatchObject({ asked_by: 'ana', asked_by_email: address('ana'), reason: 'Interim count for the board', approved_at: null });
    expect(Date.parse(row!.expires_at) - Date.parse(row!.asked_at)).toBe(24 * 60 * MINUTE);
    expect((await trail(SEALED)).at(-1)).toMatchObject({
      actor: 'ana',
      actor_email: address('ana'),
      via: 'console',
      role: 'owner',
      action: 'unseal ask',
      subject: asked,
    });
    const own = await browsers.ana.page(page(SEALED));
    expect(own.body).toContain('you cannot approve your own request');
    expect(own.body).not.toContain(`action="${api(SEALED, `unseal/${asked}/approve`)}"`);
    const other = await browsers.ben.page(page(SEALED));
    expect(other.body).toContain(`action="${api(SEALED, `unseal/${asked}/approve`)}"`);
    // A second request waits for the first.
    expect((await browsers.ben.post(api(SEALED, 'unseal'), { reason: 'me too' })).body.error).toBe('request_waiting');
  });

  test('the owner who asked cannot approve: refused with a clear message, and nothing changes', async () => {
    const before = await state();
    const answer = await browsers.ana.post(api(SEALED, `unseal/${asked}/approve`));
    expect([answer.status, answer.body.error]).toEqual([403, 'own_request']);
    expect(answer.body.message).toBe('You asked to unseal: another owner of this survey must approve it, not you.');
    expect(await state()).toEqual(before);
  });

  test('another owner approves after a passkey check; the asker sees the count once, and the trail says who did each', async () => {
    const later = { now: new Date(Date.now() + 6 * MINUTE) };
    const before = await state();
    const lapsed = await browsers.ben.post(api(SEALED, `unseal/${asked}/approve`), {}, later);
    expect([lapsed.status, lapsed.body.error]).toEqual([403, 'reauthentication_required']);
    expect(await state()).toEqual(before);
    expect((await browsers.ben.reauthenticate()).status).toBe(200);
    const approved = await browsers.ben.post(api(SEALED, `unseal/${asked}/approve`));
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    await settled();
    expect((await trail(SEALED)).at(-1)).toMatchObject({ actor: 'ben', actor_email: address('ben'), via: 'console', action: 'unseal approve', subject: asked });

    // The approver sees no count; the asker, once.
    expect((await browsers.ben.page(page(SEALED))).body).not.toContain('Standings');
    const look = await browsers.ana.page(page(SEALED));
    expect(look.body).toContain('Your early look');
    expect(look.body).toContain('Standings');
    expect(look.body).toContain('Medicine / Cardiology');
    const entry = (await trail(SEALED)).at(-1);
    expect(entry).toMatchObject({ actor: 'ana', action: 'unseal look', subject: asked });
    expect(JSON.parse(entry?.details ?? '{}')).toMatchObject({ asked_by: 'ana', approved_by: 'ben', ballots: PEER_CHECK_BALLOTS.length });
    const again = await browsers.ana.page(page(SEALED));
    expect(again.body).not.toContain('Standings');
    expect(again.body).toContain('Approved, look taken');
    expect((await trail(SEALED)).filter((row) => row.action === 'unseal look')).toHaveLength(1);
    // Approved once only.
    expect((await browsers.auditor.post(api(SEALED, `unseal/${asked}/approve`))).status).toBe(403);
  });

  test('a look opened in two tabs at once is shown in one of them, and recorded once', async () => {
    const answer = await browsers.ben.post(api(SEALED, 'unseal'), { reason: 'Check before the board meets' });
    expect(answer.status).toBe(201);
    const id = answer.body.request as string;
    expect((await browsers.ana.reauthenticate()).status).toBe(200);
    expect((await browsers.ana.post(api(SEALED, `unseal/${id}/approve`))).status).toBe(200);
    await settled();
    const tabs = await Promise.all([browsers.ben.page(page(SEALED)), browsers.ben.page(page(SEALED)), browsers.ben.page(page(SEALED))]);
    expect(tabs.filter((tab) => String(tab.body).includes('Your early look'))).toHaveLength(1);
    expect((await trail(SEALED)).filter((row) => row.action === 'unseal look' && row.subject === id)).toHaveLength(1);
  });

  test('a request not approved within 24 hours has expired, and cannot be approved', async () => {
    const answer = await browsers.ben.post(api(SEALED, 'unseal'), { reason: 'Second look for the editor' });
    expect(answer.status).toBe(201);
    const id = answer.body.request as string;
    // Asked 25 hours ago, as the trail cannot be made to wait.
    const asked = new Date(Date.now() - 25 * 60 * MINUTE);
    await db()
      .updateTable('unseal_requests')
      .set({ asked_at: asked.toISOString(), expires_at: new Date(asked.getTime() + 24 * 60 * MINUTE).toISOString() })
      .where('id', '=', id)
      .execute();
    const before = await state();
    const late = await browsers.ana.post(api(SEALED, `unseal/${id}/approve`));
    expect([late.status, late.body.error]).toEqual([409, 'request_expired']);
    expect(late.body.message).toContain('not approved within 24 hours');
    expect(await state()).toEqual(before);
    expect((await browsers.ana.page(page(SEALED))).body).toContain('Expired, not approved');
  });
});

describe('after the close', () => {
  test('before a Count the page stores none, and says so; Count gives the figures of results tally, to the byte', async () => {
    const first = await browsers.ana.page(page(CLOSED));
    expect(first.body).toContain('No count is stored yet');
    expect(first.body).not.toContain('Standings');
    // A ballot taken out of the count on the command line: the count and the page both say so.
    const ballot = await db()
      .selectFrom('ballots')
      .select('id')
      .where('project_id', '=', CLOSED)
      .where('link', '=', 'public')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const excluded = await results('exclude', CLOSED, ballot.id, '--why', 'Same device as three others', '--by', 'editor');
    expect(excluded.code, excluded.stderr).toBe(0);
    const counted = await browsers.ana.post(api(CLOSED, 'count'));
    expect([200, 202], JSON.stringify(counted.body)).toContain(counted.status);
    await settled();
    const shown = await browsers.ana.page(page(CLOSED));
    expect(shown.body).toContain('Standings');
    expect(shown.body).toContain('No ballot has arrived since.');
    expect(shown.body).toContain('The methodology');
    expect(shown.body).toContain('Each voter may name up to 3 nominees in each sub-category.');
    expect(shown.body).toContain('Exclusions');
    expect(shown.body).toMatch(/not counted, operator excluded: /);
    expect(shown.body).toMatch(new RegExp(`<td class="refused-code">${ballot.id}</td><td>editor</td>[\\s\\S]*?<td>Same device as three others</td>`));
    const csv = await browsers.ana.request(api(CLOSED, `counts/${counted.body.count}/csv`));
    expect(csv.status).toBe(200);
    const work = mkdtempSync(path.join(tmpdir(), 'peervote-console-results-'));
    try {
      const run = await results('tally', CLOSED, '--quiet', '--out', path.join(work, 'tally.csv'));
      expect(run.code, run.stderr).toBe(0);
      expect(csv.body).toBe(readFileSync(path.join(work, 'tally.csv'), 'utf8'));
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  test('Publish writes the folder results publish writes, to the byte; the page says what to commit, and offers it as a download', async () => {
    const at = new Date(Math.floor(Date.now() / 1000) * 1000);
    const folder = path.join(server.surveysDir, CLOSED, 'results');
    const work = mkdtempSync(path.join(tmpdir(), 'peervote-console-published-'));
    try {
      expect((await browsers.ana.reauthenticate({ now: at })).status).toBe(200);
      const published = await browsers.ana.post(api(CLOSED, 'publish'), {}, { now: at });
      expect([200, 202], JSON.stringify(published.body)).toContain(published.status);
      await settled();
      expect((await trail(CLOSED)).at(-1)).toMatchObject({ actor: 'ana', via: 'console', action: 'publish', subject: CLOSED });
      const files = readdirSync(folder).sort();
      expect(files).toEqual(['ledger.jsonl', 'methodology.md', 'results.json', 'verify.mjs']);
      const console = Object.fromEntries(files.map((file) => [file, readFileSync(path.join(folder, file))]));

      const shown = await browsers.ana.page(page(CLOSED));
      expect(shown.body).toContain(`git add ${folder}`);
      expect(shown.body).toContain('npm run build');
      const download = await fetch(`${server.origin}${api(CLOSED, 'download')}`, { headers: { Cookie: browsers.ana.cookie } });
      expect([download.status, download.headers.get('content-type')]).toEqual([200, 'application/gzip']);
      writeFileSync(path.join(work, 'results.tar.gz'), Buffer.from(await download.arrayBuffer()));
      execFileSync('tar', ['-xzf', 'results.tar.gz'], { cwd: work });
      for (const file of files) expect(readFileSync(path.join(work, 'results', file)).equals(console[file]), file).toBe(true);

      const run = await results('publish', CLOSED, '--quiet', '--at', at.toISOString());
      expect(run.code, run.stderr).toBe(0);
      for (const file of files) expect(readFileSync(path.join(folder, file)).equals(console[file]), file).toBe(true);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  test('an owner may not publish a survey before its close', async () => {
    const before = await state();
    const early = await browsers.ana.post(api(SEALED, 'publish'));
    expect([early.status, early.body.error]).toEqual([409, 'not_closed']);
    expect(await state()).toEqual(before);
  });
});
