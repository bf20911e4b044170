import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, expectNoAxeViolations, test as base } from './fixtures.ts';
import { startServer } from '../support/server.mjs';
import { runResults } from '../support/results-cli.ts';
import { demoBallotFields } from '../support/ballots.mjs';
import { NOW_HEADER } from './fresh-server.ts';
import { CONSOLE_LAUNCH } from './virtual-authenticator.ts';
import { atWidth, enrol } from './console-pages.ts';

// A reviewer admits a refused ballot from the console, with a real passkey (Chromium's virtual
// authenticator): the page at a phone's width and a laptop's, by keyboard alone, axe clean.

const ROOT = path.resolve(import.meta.dirname, '../..');
const SURVEY = 'top-doctors-demo';
const REVIEWER = 'reviewer@metrohealth.example';
const AUDITOR = 'auditor@metrohealth.example';
const OPERATORS = `operators:
  - email: ${REVIEWER}
    name: Demo Reviewer
    roles:
      ${SURVEY}: reviewer
  - email: ${AUDITOR}
    name: Demo Auditor
    roles:
      ${SURVEY}: auditor
`;

/** A server of the test's own, on a copy of the repository's surveys with its own operators file, and an empty database. */
interface RefusedConsole {
  /** The console's origin: http://localhost:PORT. */
  origin: string;
  /** `npm run results -- …args` against this server's database and surveys. */
  results(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Sends demo ballot `n` after the survey's close, which the API refuses (410) and keeps. */
  lateBallot(n: number): Promise<void>;
}

const test = base.extend<{ console: RefusedConsole }>({
  console: async ({}, use) => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'peervote-e2e-refused-'));
    const surveysDir = path.join(dataDir, 'surveys');
    await cp(path.join(ROOT, 'surveys'), surveysDir, { recursive: true });
    await writeFile(path.join(surveysDir, 'operators.yaml'), OPERATORS);
    const env = { DATA_DIR: dataDir, SURVEYS_DIR: surveysDir };
    const server = await startServer({
      env: { ...env, PEERVOTE_TEST_HOOKS: '1', CONSOLE_RATE_LIMIT_MAX: '0' },
      ports: { base: Number(process.env.E2E_PORT ?? 4322) + 1, span: 20 },
    });
    try {
      await use({
        origin: `http://localhost:${server.port}`,
        results: (...args) => runResults(args, env),
        async lateBallot(n) {
          const form = new FormData();
          for (const [name, value] of demoBallotFields(n)) form.append(name, value);
          const query = new URLSearchParams({ project_id: SURVEY, project_type: 'form', sheet: 'Top Doctors 2027 ballots' });
          // Seven minutes after the close (2099-12-31T23:59:59Z), plus a minute a ballot.
          const at = new Date(Date.parse('2100-01-01T00:07:00Z') + n * 60_000).toISOString();
          const sent = await fetch(`${server.url}/api/survey?${query}`, { method: 'POST', body: form, headers: { Origin: server.url, [NOW_HEADER]: at } });
          expect(sent.status).toBe(410);
        },
      });
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
});

test.use({ launchOptions: CONSOLE_LAUNCH });

test('a reviewer admits a refused ballot with a reason, after a passkey check, and the trail names them', async ({ page, console: server }, info) => {
  for (const n of [1, 2, 3]) await server.lateBallot(n);
  await enrol(page, server, REVIEWER);

  await page.getByRole('link', { name: 'Top Doctors 2027' }).click();
  await page.getByRole('link', { name: '3 refused ballots' }).click();
  await expect(page).toHaveURL(`${server.origin}/console/${SURVEY}/refused/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Refused ballots: Top Doctors 2027' })).toBeVisible();
  const cards = page
    .getByRole('list', { name: 'Refused ballots, newest first' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 2 }) });
  await expect(cards).toHaveCount(3);
  // Newest first: the third ballot, sent nine minutes after the close.
  const newest = cards.first();
  await expect(newest.getByRole('heading', { level: 2 })).toHaveText('Sent after the close');
  await expect(newest).toContainText('2100-01-01 00:10 UTC, 10 minutes after the close');
  await expect(newest).toContainText('8 nominations, 1 write-in');
  // A reviewer judges it without the voter's name or answers.
  await expect(page.getByText('Its answers')).toHaveCount(0);
  await expect(page.getByText('@example.org')).toHaveCount(0);
  await atWidth(page, info, 1280, 'refused');
  await atWidth(page, info, 360, 'refused');

  // By keyboard alone: Admit with no reason says what is missing, under the box, and puts the focus there.
  const reason = newest.getByLabel('Reason');
  await reason.focus();
  await page.keyboard.press('Tab');
  await expect(newest.getByRole('button', { name: 'Admit' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(newest.getByText('Enter a reason: say why this ballot should be counted.')).toBeVisible();
  await expect(reason).toBeFocused();
  await expect(reason).toHaveAccessibleDescription(/Enter a reason: say why this ballot should be counted\./);
  await atWidth(page, info, 360, 'refused-error');
  await page.setViewportSize({ width: 1280, height: 900 });

  // Six minutes on, the sign-in's passkey check has lapsed: Admit asks for the passkey, which the authenticator gives, and goes on.
  await page.setExtraHTTPHeaders({ [NOW_HEADER]: new Date(Date.now() + 6 * 60 * 1000).toISOString() });
  await page.keyboard.type('The voter mailed the ballot before the close; the postmark is on file.');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/console/${SURVEY}/refused/\\?admitted=[0-9a-f-]{36}#ballot-`));
  await expect(page.getByRole('status').first()).toHaveText('The ballot is admitted: it is counted from now on.');
  await expect(cards.first()).toContainText(/Admitted by Demo Reviewer at 20\d\d-\d\d-\d\d \d\d:\d\d UTC, as ballot [0-9a-f-]{36}\./);
  await expect(cards.first()).toContainText('Reason: The voter mailed the ballot before the close; the postmark is on file.');
  await expect(cards.first().getByRole('button', { name: 'Admit' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Admit' })).toHaveCount(2);
  await atWidth(page, info, 360, 'refused-admitted');
  await atWidth(page, info, 1280, 'refused-admitted');

  // Stored and signed as the command line would have it: the refused list says who admitted it, the trail through what.
  const refused = await server.results('refused', SURVEY);
  expect(refused.stdout.split('\r\n').filter((line) => line.includes(',Demo Reviewer,'))).toHaveLength(1);
  const trail = await server.results('audit', SURVEY);
  const admit = trail.stdout.split('\r\n').find((line) => line.includes(',admit,'));
  expect(admit).toContain('Demo Reviewer');
  expect(admit).toContain('The voter mailed the ballot before the close');
  expect(admit).toContain(',console,');
  expect(admit).toContain(REVIEWER);
  // The console asked for the passkey before it went on: the sign-in log holds the check.
  const log = await server.results('operators', 'sign-ins');
  expect(log.stdout).toMatch(new RegExp(`,reauthentication,signed_in,${REVIEWER},`));
});

test('an auditor sees the count on the survey’s page with no link, and the refused ballots are not for their role', async ({ page, console: server }) => {
  await server.lateBallot(1);
  await enrol(page, server, AUDITOR);
  await page.goto(`${server.origin}/console/${SURVEY}/`);
  const card = page.getByRole('region', { name: 'Refused ballots' });
  await expect(card.getByRole('table')).toBeVisible();
  await expect(card.getByRole('link')).toHaveCount(0);
  const answer = await page.goto(`${server.origin}/console/${SURVEY}/refused/`);
  expect(answer?.status()).toBe(403);
  await expect(page.getByRole('heading', { level: 1, name: 'Not for your role' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Admit' })).toHaveCount(0);
  await expectNoAxeViolations(page);
});
