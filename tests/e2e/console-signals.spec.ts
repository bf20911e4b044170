import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test as base } from './fixtures.ts';
import { startServer } from '../support/server.mjs';
import { runResults } from '../support/results-cli.ts';
import { demoBallotFields } from '../support/ballots.mjs';
import { NOW_HEADER } from './fresh-server.ts';
import { CONSOLE_LAUNCH } from './virtual-authenticator.ts';
import { atWidth, enrol } from './console-pages.ts';

// A reviewer excludes a ballot a signal names from the console, with a real passkey (Chromium's
// virtual authenticator): the page at a phone's width and a laptop's, by keyboard alone, axe
// clean; then the tally and the audit trail say so, with the reviewer's name.

const ROOT = path.resolve(import.meta.dirname, '../..');
const SURVEY = 'top-doctors-demo';
const REVIEWER = 'reviewer@metrohealth.example';
const OPERATORS = `operators:
  - email: ${REVIEWER}
    name: Demo Reviewer
    roles:
      ${SURVEY}: reviewer
`;

/** A server of the test's own, on a copy of the repository's surveys with its own operators file, and an empty database. */
interface SignalsConsole {
  /** The console's origin: http://localhost:PORT. */
  origin: string;
  dataDir: string;
  /** `npm run results -- …args` against this server's database and surveys. */
  results(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Sends demo ballot `n` at a time: every ballot of the test comes from one address, this machine's. */
  ballot(n: number, at: string): Promise<string>;
}

const test = base.extend<{ console: SignalsConsole }>({
  console: async ({}, use) => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'peervote-e2e-signals-'));
    const surveysDir = path.join(dataDir, 'surveys');
    await cp(path.join(ROOT, 'surveys'), surveysDir, { recursive: true });
    await writeFile(path.join(surveysDir, 'operators.yaml'), OPERATORS);
    const env = { DATA_DIR: dataDir, SURVEYS_DIR: surveysDir };
    const server = await startServer({
      env: { ...env, PEERVOTE_TEST_HOOKS: '1', CONSOLE_RATE_LIMIT_MAX: '0', RATE_LIMIT_MAX: '0' },
      ports: { base: Number(process.env.E2E_PORT ?? 4322) + 1, span: 20 },
    });
    try {
      await use({
        origin: `http://localhost:${server.port}`,
        dataDir,
        results: (...args) => runResults(args, env),
        async ballot(n, at) {
          const form = new FormData();
          for (const [name, value] of demoBallotFields(n)) form.append(name, value);
          const query = new URLSearchParams({ project_id: SURVEY, project_type: 'form', sheet: 'Top Doctors 2027 ballots' });
          const sent = await fetch(`${server.url}/api/survey?${query}`, {
            method: 'POST',
            body: form,
            headers: { Origin: server.url, Accept: 'application/json', [NOW_HEADER]: at },
          });
          expect(sent.status).toBe(201);
          return (await sent.json()).ballot_id as string;
        },
      });
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
});

test.use({ launchOptions: CONSOLE_LAUNCH });

test('a reviewer excludes a ballot a signal names, with a reason, and the tally and the trail say so', async ({ page, console: server }, info) => {
  // Six ballots from one address within 25 seconds: an address burst.
  const ids: string[] = [];
  for (let n = 0; n < 6; n++) ids.push(await server.ballot(n + 1, new Date(Date.parse('2030-03-02T14:00:00Z') + n * 5_000).toISOString()));
  const look = await server.results('signals', SURVEY, '--quiet', '--by', 'Night Analyst');
  expect(look.code, look.stderr).toBe(0);
  await enrol(page, server, REVIEWER);

  await page.getByRole('link', { name: 'Top Doctors 2027' }).click();
  await page.getByRole('link', { name: 'Each cluster and the ballots it names' }).click();
  await expect(page).toHaveURL(`${server.origin}/console/${SURVEY}/signals/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Signals: Top Doctors 2027' })).toBeVisible();
  const burst = page
    .getByRole('list', { name: 'Clusters, strongest first' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 2, name: /^Address burst/ }) });
  await expect(burst).toHaveCount(1);
  await expect(burst).toContainText('6 ballots from one address, 2030-03-02 14:00:00–14:00:25 UTC');
  const ballots = burst.getByRole('list', { name: /^Ballots of cluster/ }).getByRole('listitem');
  await expect(ballots).toHaveCount(6);
  const first = ballots.first();
  await expect(first).toContainText(ids[0]);
  await expect(first).toContainText('2030-03-02 14:00 UTC');
  // A reviewer judges it without the voter's name.
  await expect(page.getByText('@example.org')).toHaveCount(0);
  await expect(page.getByText('Voter', { exact: true })).toHaveCount(0);
  await atWidth(page, info, 1280, 'signals');
  await atWidth(page, info, 360, 'signals');

  // By keyboard alone: Exclude with no reason says what is missing, under the box, and puts the focus there.
  const reason = first.getByLabel('Reason');
  await reason.focus();
  await page.keyboard.press('Tab');
  await expect(first.getByRole('button', { name: 'Exclude' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(first.getByText('Enter a reason: say why this ballot should not count.')).toBeVisible();
  await expect(reason).toBeFocused();
  await expect(reason).toHaveAccessibleDescription(/Enter a reason: say why this ballot should not count\./);
  await page.keyboard.type('One of six ballots from one address in 25 seconds.');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/console/${SURVEY}/signals/\\?excluded=${ids[0]}#c\\d+-${ids[0]}$`));
  await expect(page.getByRole('status').first()).toHaveText('The ballot is excluded: the tally leaves it out from now on.');
  await expect(ballots.first()).toContainText(
    /Excluded by Demo Reviewer at 20\d\d-\d\d-\d\d \d\d:\d\d UTC\. Reason: One of six ballots from one address in 25 seconds\./,
  );
  await expect(ballots.first().getByRole('button', { name: 'Restore' })).toBeVisible();
  await expect(ballots.first().getByRole('button', { name: 'Exclude' })).toHaveCount(0);
  await atWidth(page, info, 360, 'signals-excluded');
  await atWidth(page, info, 1280, 'signals-excluded');

  // The tally leaves it out, with the reason; the trail names the reviewer, through the console.
  const exclusions = path.join(server.dataDir, 'exclusions.csv');
  const tally = await server.results('tally', SURVEY, '--quiet', '--exclusions', exclusions);
  expect(tally.code, tally.stderr).toBe(0);
  const left = readFileSync(exclusions, 'utf8')
    .split('\r\n')
    .filter((line) => line.startsWith(ids[0]));
  expect(left.length).toBeGreaterThan(0);
  for (const line of left) expect(line).toContain(',operator_excluded,excluded by an operator: One of six ballots from one address in 25 seconds.');
  expect(readFileSync(exclusions, 'utf8')).not.toContain(ids[1]);
  const trail = await server.results('audit', SURVEY);
  const exclude = trail.stdout.split('\r\n').find((line) => line.includes(',exclude,'));
  expect(exclude).toContain('Demo Reviewer');
  expect(exclude).toContain(ids[0]);
  expect(exclude).toContain('One of six ballots from one address in 25 seconds.');
  expect(exclude).toContain(',console,');
  expect(exclude).toContain(REVIEWER);
});
