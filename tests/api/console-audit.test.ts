import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { appendAudit, latestAudit } from '../../src/server/db/audit.repository.ts';
import { runResults } from '../support/results-cli.ts';
import { oneInstant, SINK_QUERY, sinkBallot } from './helpers.ts';
import { ConsoleBrowser, operatorsYaml, startConsole, type ConsoleServer } from './console-helpers.ts';

// A survey's audit trail in the console, on both databases: every role on the survey reads it,
// no one else finds it; its filters, its pages by keyset, and "Check the chain", which says what
// `audit --verify` prints.

const ROLES = ['auditor', 'reviewer', 'manager', 'owner'] as const;
type Role = (typeof ROLES)[number];
const address = (role: Role) => `${role}@metrohealth.example`;
const ELSEWHERE = 'elsewhere@metrohealth.example';
/** An owner of every survey: the operators' own trail is theirs. */
const CHIEF = 'chief@metrohealth.example';
const SURVEY = 'top-doctors-demo';
/** The entries the demo survey's trail is given: more than two pages of 100. */
const ENTRIES = 250;
const ACTORS = ['Ann Lee', 'Bob Stone'];
const ACTIONS = ['admit', 'exclude', 'writeins resolve'];

let server: ConsoleServer;
const browsers = {} as Record<Role, ConsoleBrowser>;
let elsewhere: ConsoleBrowser;
let chief: ConsoleBrowser;

beforeAll(async () => {
  server = await startConsole(
    operatorsYaml({
      ...Object.fromEntries(ROLES.map((role) => [address(role), { [SURVEY]: role, 'kitchen-sink': role }])),
      [ELSEWHERE]: { 'members-choice': 'owner' },
      [CHIEF]: { '*': 'owner' },
    }),
  );
  for (const role of ROLES) browsers[role] = await new ConsoleBrowser(server).enrolled(address(role));
  elsewhere = await new ConsoleBrowser(server).enrolled(ELSEWHERE);
  chief = await new ConsoleBrowser(server).enrolled(CHIEF);
  const db = server.api.db();
  for (let n = 0; n < ENTRIES; n++) {
    await appendAudit(db, {
      projectId: SURVEY,
      actor: ACTORS[n % 2],
      actorEmail: n % 2 ? null : 'ann@metrohealth.example',
      role: n % 2 ? null : 'reviewer',
      via: n % 2 ? 'command line' : 'console',
      sessionId: n % 2 ? null : 'a-session',
      action: ACTIONS[n % 3],
      subject: `b-${n + 1}`,
      reason: `reason ${n + 1}`,
      details: { ballots: 1, ids: [`b-${n + 1}`] },
    });
  }
}, 120_000);
afterAll(() => server?.stop());

const PAGE = `/console/${SURVEY}/audit/`;
/** The entries' numbers a page's table shows, in its order. */
const seqs = (html: string) => [...html.matchAll(/<tr>\s*<td class="number" data-label="Entry">(\d+)<\/td>/g)].map((found) => Number(found[1]));
/** The address of a page's link to the next (older) or previous (newer) page, as a browser reads its href. */
const link = (html: string, rel: 'next' | 'prev') => {
  const found = new RegExp(`href="([^"]+)" rel="${rel}"`).exec(html) ?? new RegExp(`rel="${rel}"[^>]*href="([^"]+)"`).exec(html);
  return found?.[1].replaceAll('&amp;', '&');
};
/** The status region's words. */
const status = (html: string) => /role="status"[^>]*>([^<]*)</.exec(html)?.[1].replaceAll('&#39;', "'").replaceAll('&quot;', '"').trim();
const verify = () =>
  runResults(['audit', SURVEY, '--verify'], { SURVEYS_DIR: server.surveysDir, DATA_DIR: server.api.dataDir, DATABASE_URL: server.api.databaseUrl });

describe('who sees it', () => {
  test.each(ROLES)('a %s reads the trail, newest first, in a table, with the console headers', async (role) => {
    const page = await browsers[role].page(PAGE);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<caption>');
    expect(page.body).toContain('<th scope="col">Who</th>');
    expect(seqs(page.body).slice(0, 3)).toEqual([ENTRIES, ENTRIES - 1, ENTRIES - 2]);
    expect(page.body).toContain('ann@metrohealth.example');
    expect([page.headers.get('cache-control'), page.headers.get('x-frame-options')]).toEqual(['no-store', 'DENY']);
    expect(page.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page.body).not.toMatch(/\sstyle="/);
    expect((await browsers[role].page(`/console/${SURVEY}/`)).body).toContain(`href="${PAGE}"`);
  });

  test('a survey without a role on it, and an unknown one, are not found', async () => {
    for (const slug of ['members-choice', 'no-such-survey']) {
      const page = await browsers.owner.page(`/console/${slug}/audit/`);
      expect(page.status).toBe(404);
      expect(page.body).toContain('There is nothing here for you');
      expect(page.headers.get('cache-control')).toBe('no-store');
    }
    expect((await elsewhere.page(PAGE)).status).toBe(404);
  });

  test('without a session, the page sends to the sign-in', async () => {
    const page = await new ConsoleBrowser(server).page(PAGE);
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/console/sign-in');
  });

  test("the operators' own trail is an owner of every survey's alone", async () => {
    const page = await chief.page('/console/operators/audit/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<option value="passkey added">passkey added</option>');
    expect(page.body).toContain('chief@metrohealth.example');
    expect((await chief.page('/console/operators/')).body).toContain('href="/console/operators/audit/"');
    expect((await browsers.owner.page('/console/operators/audit/')).status).toBe(404);
    expect((await browsers.owner.page('/console/operators/')).body).not.toContain('/console/operators/audit/');
  });
});

describe('filters and pages', () => {
  test('the selects offer the actors and the actions of the trail, and a filter narrows the rows', async () => {
    const first = await browsers.auditor.page(PAGE);
    for (const actor of ACTORS) expect(first.body).toContain(`<option value="${actor}">${actor}</option>`);
    for (const action of ACTIONS) expect(first.body).toContain(`<option value="${action}">${action}</option>`);
    const page = await browsers.auditor.page(`${PAGE}?actor=${encodeURIComponent('Bob Stone')}&action=exclude`);
    expect(page.status).toBe(200);
    // Bob Stone acts on the odd entries (n odd), exclude on n % 3 === 1: n = 1, 7, 13… are entries 2, 8, 14…
    const expected = Array.from({ length: ENTRIES }, (_, n) => n)
      .filter((n) => n % 2 === 1 && n % 3 === 1)
      .map((n) => n + 1)
      .reverse();
    expect(seqs(page.body)).toEqual(expected);
    expect(page.body).toContain('<option value="exclude" selected>exclude</option>');
    expect(link(page.body, 'next')).toBeUndefined();
  });

  test('every entry shows once across the pages, by Next and back by Previous, a filter kept', async () => {
    const walk = async (start: string, rel: 'next' | 'prev') => {
      const seen: number[][] = [];
      let next: string | undefined = start;
      let last = '';
      while (next) {
        const page = await browsers.reviewer.page(next);
        expect(page.status).toBe(200);
        seen.push(seqs(page.body));
        last = next;
        next = link(page.body, rel);
        expect(seen.length).toBeLessThan(10);
      }
      return { pages: seen, last };
    };
    const down = await walk(PAGE, 'next');
    expect(down.pages.map((rows) => rows.length)).toEqual([100, 100, 50]);
    expect(down.pages.flat()).toEqual(Array.from({ length: ENTRIES }, (_, n) => ENTRIES - n));
    const up = await walk(down.last, 'prev');
    expect(up.pages.flat().sort((a, b) => b - a)).toEqual(down.pages.flat());
    expect(new Set(up.pages.flat()).size).toBe(ENTRIES);

    const filtered = await walk(`${PAGE}?action=admit`, 'next');
    const admits = Array.from({ length: ENTRIES }, (_, n) => n)
      .filter((n) => n % 3 === 0)
      .map((n) => n + 1)
      .reverse();
    expect(filtered.pages.flat()).toEqual(admits);
    expect(filtered.last).toContain('action=admit');
  });

  test("the page shows no voter's data, though the trail names their ballot", async () => {
    const posted = await server.api.post(sinkBallot(), { query: SINK_QUERY });
    expect(posted.status, JSON.stringify(posted.body)).toBeLessThan(300);
    const db = server.api.db();
    const ballot = await db.selectFrom('ballots').select('id').where('project_id', '=', 'kitchen-sink').executeTakeFirstOrThrow();
    await appendAudit(db, {
      projectId: 'kitchen-sink',
      actor: 'Ann Lee',
      action: 'exclude',
      subject: ballot.id,
      reason: 'a duplicate',
      details: { ballots: 1 },
    });
    const page = await browsers.auditor.page('/console/kitchen-sink/audit/');
    expect(page.status).toBe(200);
    expect(page.body).toContain(ballot.id);
    for (const voter of ['Ada Lovelace', 'ada@example.org', 'St. Mary', 'Resident', 'Research']) expect(page.body).not.toContain(voter);
  });
});

describe('Check the chain', () => {
  test('says what audit --verify prints: verified on a fresh trail, the changed entry after an UPDATE', async () => {
    const head = await latestAudit(server.api.db(), SURVEY);
    const fresh = await browsers.auditor.page(`${PAGE}?action=admit&check=1`);
    expect(status(fresh.body)).toBe(`verified: ${ENTRIES} entries, head ${head?.hash}`);
    expect(seqs(fresh.body)[0]).toBe(ENTRIES - ((ENTRIES - 1) % 3));
    expect((await verify()).stdout.trim()).toBe(status(fresh.body));
    expect(status((await browsers.auditor.page(PAGE)).body)).toBe('');

    const db = server.api.db();
    await db.updateTable('audit_log').set({ reason: 'changed afterwards' }).where('project_id', '=', SURVEY).where('seq', '=', 42).execute();
    try {
      const changed = status((await browsers.auditor.page(`${PAGE}?check=1`)).body);
      expect(changed).toMatch(/^not verified: entry 42 \(id [0-9a-f-]+, at [^)]+\) was changed: its hash does not match its content\.$/);
      const command = await verify();
      expect(command.code).toBe(1);
      expect(command.stderr.trim()).toBe(changed);
    } finally {
      await db.updateTable('audit_log').set({ reason: 'reason 42' }).where('project_id', '=', SURVEY).where('seq', '=', 42).execute();
    }
  }, 60_000);

  test('takes the published results as an anchor, as audit --verify does', async () => {
    const folder = path.join(server.surveysDir, SURVEY, 'results');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'results.json'), JSON.stringify({ audit_entry: '01900000-0000-7000-8000-000000000000', audit_head: 'ab'.repeat(32) }));
    try {
      const said = status((await browsers.owner.page(`${PAGE}?check=1`)).body);
      expect(said).toContain('not verified: the published results (top-doctors-demo/results/results.json) names entry 01900000-0000-7000-8000-000000000000');
      expect((await verify()).stderr.trim()).toBe(said);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);

  test('a session checks the chain 10 times a window, then is told when to check again', async () => {
    const sent = { headers: oneInstant() };
    const said: string[] = [];
    for (let n = 0; n < 11; n++) said.push(status((await browsers.manager.page(`${PAGE}?check=1`, sent)).body) ?? '');
    expect(said.slice(0, 10).every((words) => words.startsWith('verified: '))).toBe(true);
    expect(said[10]).toMatch(/^Not checked: the chain was checked 10 times from this session lately; check again in \d+ seconds\.$/);
    expect(status((await browsers.owner.page(`${PAGE}?check=1`, sent)).body)).toMatch(/^verified: /);
  });
});
