import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page, TestInfo } from '@playwright/test';
import { expect, test as base } from './fixtures.ts';
import { startServer } from '../support/server.mjs';
import { runResults } from '../support/results-cli.ts';
import { demoBallotFields } from '../support/ballots.mjs';
import { NOW_HEADER } from './fresh-server.ts';
import { CONSOLE_LAUNCH } from './virtual-authenticator.ts';
import { atWidth, enrol } from './console-pages.ts';

// A survey's results page in the console, with real passkeys (Chromium's virtual authenticator):
// two owners in two browsers unseal a sealed survey early, one asking and the other approving,
// and the one who asked cannot approve; after the close an owner counts and publishes. Each
// page at a phone's width and a laptop's, axe clean.

const ROOT = path.resolve(import.meta.dirname, '../..');
/** The demo survey, sealed: open until 2099. */
const SEALED = 'top-doctors-demo';
/** A copy of it that closed at the end of January 2026, sealed too. */
const CLOSED = 'top-doctors-closed';
const ANA = 'ana@metrohealth.example';
const BEN = 'ben@metrohealth.example';
const OPERATORS = `operators:
  - email: ${ANA}
    name: Ana Owner
    roles:
      "*": owner
  - email: ${BEN}
    name: Ben Owner
    roles:
      "*": owner
`;
/** Where the screenshots are kept besides the test's results, when a folder is named. */
const SCREENS = process.env.CONSOLE_SCREENS;

/** A server of the test's own, on a copy of the repository's surveys (the demo sealed, and a closed copy of it), and an empty database. */
interface ResultsConsole {
  origin: string;
  /** The surveys folder the server reads, a copy of the repository's. */
  surveysDir: string;
  results(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Sends demo ballot `n` to a survey at a time. */
  ballot(projectId: string, n: number, at: Date): Promise<void>;
}

const test = base.extend<{ console: ResultsConsole }>({
  console: async ({}, use) => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'peervote-e2e-results-'));
    const surveysDir = path.join(dataDir, 'surveys');
    await cp(path.join(ROOT, 'surveys'), surveysDir, { recursive: true });
    await writeFile(path.join(surveysDir, 'operators.yaml'), OPERATORS);
    const yaml = path.join(surveysDir, SEALED, 'survey.yaml');
    const base = await readFile(yaml, 'utf8');
    await writeFile(yaml, `${base}\nresults:\n  sealed: true\n`);
    await cp(path.join(surveysDir, SEALED), path.join(surveysDir, CLOSED), { recursive: true });
    await writeFile(
      path.join(surveysDir, CLOSED, 'survey.yaml'),
      `${base.replace(`project_id: ${SEALED}`, `project_id: ${CLOSED}`).replace('expiration_date: "2099-12-31T23:59:59Z"', 'expiration_date: "2026-01-31T23:59:59Z"').replace('survey_title: Top Doctors 2027', 'survey_title: Top Doctors 2026')}\nresults:\n  sealed: true\n`,
    );
    const env = { DATA_DIR: dataDir, SURVEYS_DIR: surveysDir };
    const server = await startServer({
      env: { ...env, PEERVOTE_TEST_HOOKS: '1', CONSOLE_RATE_LIMIT_MAX: '0', RATE_LIMIT_MAX: '0' },
      ports: { base: Number(process.env.E2E_PORT ?? 4322) + 1, span: 8 },
    });
    try {
      await use({
        origin: `http://localhost:${server.port}`,
        surveysDir,
        results: (...args) => runResults(args, env),
        async ballot(projectId, n, at) {
          const form = new FormData();
          for (const [name, value] of demoBallotFields(n)) form.append(name, value);
          const query = new URLSearchParams({ project_id: projectId, project_type: 'form', sheet: 'Top Doctors 2027 ballots' });
          const sent = await fetch(`${server.url}/api/survey?${query}`, {
            method: 'POST',
            body: form,
            headers: { Origin: server.url, [NOW_HEADER]: at.toISOString() },
          });
          expect(sent.status).toBe(201);
        },
      });
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
});

test.use({ launchOptions: CONSOLE_LAUNCH });

/** Reloads the page until it shows `name` as a heading: a count runs in a process of the server's, a second or two. */
async function once(page: Page, name: string): Promise<void> {
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('heading', { level: 2, name })).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 30_000 });
}

/** A browser of the operator's own (its cookie and its authenticator), enrolled from a printed link, which signs them in. */
async function owner(browser: Browser, server: ResultsConsole, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await enrol(page, server, email);
  return page;
}

/** The page at a width (console-pages.ts), its screenshot also in CONSOLE_SCREENS when set. */
const look = (page: Page, info: TestInfo, width: number, name: string) => atWidth(page, info, width, `console-results-${name}`, SCREENS);

test('one owner asks to unseal early, the same owner cannot approve, another approves after a passkey check, and the asker looks once', async ({
  browser,
  console: server,
}, info) => {
  // Two browsers, two enrolments and eight looks with axe: some 17 s alone, twice that beside another test on two cores.
  test.setTimeout(90_000);
  for (const n of [1, 2, 3]) await server.ballot(SEALED, n, new Date(Date.now() - (10 - n) * 60_000));
  const ana = await owner(browser, server, ANA);
  await ana.getByRole('link', { name: 'Top Doctors 2027' }).click();
  await ana.getByRole('link', { name: 'Results', exact: true }).click();
  await expect(ana).toHaveURL(`${server.origin}/console/${SEALED}/results/`);
  await expect(ana.getByRole('heading', { level: 2, name: 'Sealed until 31 December 2099 at 23:59 UTC' })).toBeVisible();
  await expect(ana.getByRole('heading', { name: 'Standings' })).toHaveCount(0);
  await expect(ana.getByRole('button', { name: 'Count' })).toHaveCount(0);
  await look(ana, info, 1280, 'sealed');
  await look(ana, info, 360, 'sealed');

  // Ana asks, with a reason.
  await ana.getByLabel('Reason').fill('Interim standings for the editorial board');
  await ana.getByRole('button', { name: 'Ask to unseal' }).click();
  await expect(ana).toHaveURL(/\?done=asked$/);
  await expect(ana.getByRole('status').first()).toHaveText(/Your request is recorded: another owner of this survey must approve it within 24 hours\./);
  const request = ana.getByRole('listitem').filter({ hasText: 'Interim standings for the editorial board' });
  await expect(request.getByRole('heading', { level: 3 })).toHaveText('Your request: Waits for another owner');
  await expect(request).toContainText('you cannot approve your own request');
  await expect(ana.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await look(ana, info, 360, 'asked');

  // Ana's own approval, sent as the page's script sends an act, is refused with a clear message.
  const own = await ana.evaluate(async () => {
    const id = document.querySelector('[id^="request-"]')?.id.replace(/^request-/, '') ?? '';
    const response = await fetch(`/api/console/surveys/top-doctors-demo/results/unseal/${id}/approve`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Console-CSRF': document.body.dataset.csrf ?? '' },
      body: '{}',
    });
    return { status: response.status, body: await response.json() };
  });
  expect(own).toEqual({
    status: 403,
    body: expect.objectContaining({ error: 'own_request', message: 'You asked to unseal: another owner of this survey must approve it, not you.' }),
  });

  // Ben, in a browser of his own, approves six minutes on: his sign-in's passkey check has lapsed, so Approve asks for it again.
  const ben = await owner(browser, server, BEN);
  await ben.setExtraHTTPHeaders({ [NOW_HEADER]: new Date(Date.now() + 6 * 60 * 1000).toISOString() });
  await ben.goto(`${server.origin}/console/${SEALED}/results/`);
  const waiting = ben.getByRole('listitem').filter({ hasText: 'Interim standings for the editorial board' });
  await expect(waiting.getByRole('heading', { level: 3 })).toHaveText('Ana Owner’s request: Waits for another owner');
  await look(ben, info, 360, 'approve');
  await look(ben, info, 1280, 'approve');
  await waiting.getByRole('button', { name: 'Approve' }).click();
  await expect(ben).toHaveURL(/\?done=approved#request-/);
  await expect(ben.getByRole('heading', { level: 3 })).toHaveText('Ana Owner’s request: Approved');
  // The approver sees no count.
  await expect(ben.getByRole('heading', { name: 'Standings' })).toHaveCount(0);

  // Ana sees the count once, when its process has counted.
  await once(ana, 'Your early look');
  await expect(ana.getByText('Your request is recorded')).toHaveCount(0);
  await expect(ana.getByRole('heading', { level: 2, name: 'Standings' })).toBeVisible();
  await expect(ana.getByRole('definition').filter({ hasText: /^3$/ }).first()).toBeVisible();
  await look(ana, info, 360, 'look');
  await look(ana, info, 1280, 'look');
  await ana.reload();
  await expect(ana.getByRole('heading', { name: 'Standings' })).toHaveCount(0);
  await expect(ana.getByRole('heading', { level: 3 })).toHaveText('Your request: Approved, look taken');

  // The trail names each author; the sign-in log holds Ben's passkey check.
  const trail = (await server.results('audit', SEALED)).stdout.split('\r\n');
  expect(trail.find((line) => line.includes(',unseal ask,'))).toMatch(/Ana Owner.*Interim standings for the editorial board/);
  expect(trail.find((line) => line.includes(',unseal approve,'))).toContain('Ben Owner');
  expect(trail.find((line) => line.includes(',unseal look,'))).toContain('Ana Owner');
  expect((await server.results('operators', 'sign-ins')).stdout).toMatch(new RegExp(`,reauthentication,signed_in,${BEN},`));
});

test('after the close an owner counts and publishes, and is told what to commit', async ({ browser, console: server }, info) => {
  for (const n of [1, 2, 3, 4]) await server.ballot(CLOSED, n, new Date(Date.parse('2026-01-10T09:00:00Z') + n * 60_000));
  const ana = await owner(browser, server, ANA);
  await ana.goto(`${server.origin}/console/${CLOSED}/results/`);
  await expect(ana.getByText('No count is stored yet')).toBeVisible();
  await ana.getByRole('button', { name: 'Count' }).click();
  await expect(ana).toHaveURL(/\?done=counted$/);
  await once(ana, 'Standings');
  await expect(ana.getByText('Count by Ana Owner')).toBeVisible();
  await expect(ana.getByRole('heading', { level: 2, name: 'The methodology' })).toBeVisible();
  await ana.getByRole('button', { name: 'Publish' }).click();
  await expect(ana).toHaveURL(/\?done=published$/);
  await expect(async () => {
    await ana.reload();
    await expect(ana.locator('pre')).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 30_000 });
  await expect(ana.locator('pre')).toContainText(`git add ${server.surveysDir}/${CLOSED}/results`);
  await expect(ana.getByRole('link', { name: 'Download the folder (.tar.gz)' })).toBeVisible();
  await look(ana, info, 1280, 'published');
  await look(ana, info, 360, 'published');
  const download = ana.waitForEvent('download');
  await ana.getByRole('link', { name: 'Download the folder (.tar.gz)' }).click();
  expect((await download).suggestedFilename()).toBe(`${CLOSED}-results.tar.gz`);
  expect((await server.results('verify', CLOSED)).stdout).toContain(`The published ledger of ${CLOSED} agrees with the database: 4 ballots`);
});
