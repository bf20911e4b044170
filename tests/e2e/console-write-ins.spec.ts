import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, expectNoAxeViolations, test as base } from './fixtures.ts';
import { startServer } from '../support/server.mjs';
import { runResults } from '../support/results-cli.ts';
import { demoBallotFields } from '../support/ballots.mjs';
import { CONSOLE_LAUNCH } from './virtual-authenticator.ts';
import { atWidth, enrol } from './console-pages.ts';

// A reviewer attaches three spellings of one write-in to a nominee from the console, with a real
// passkey (Chromium's virtual authenticator), and undoes it: the tally follows each time; the page
// at a phone's width and a laptop's, axe clean.

const ROOT = path.resolve(import.meta.dirname, '../..');
const SURVEY = 'top-doctors-demo';
const REVIEWER = 'reviewer@metrohealth.example';
const OPERATORS = `operators:
  - email: ${REVIEWER}
    name: Demo Reviewer
    roles:
      ${SURVEY}: reviewer
`;
/** A nominee of the demo list in Neurosurgery, where the write-ins are. */
const NOMINEE = { id: 'tdd-1169', name: 'Hannah Fischer-Choi' };

/** A server of the test's own, on a copy of the repository's surveys with its own operators file, and an empty database. */
interface WriteInsConsole {
  origin: string;
  results(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Sends demo ballot `n` with one write-in in Neurosurgery, as written. */
  writeIn(n: number, spelling: string): Promise<void>;
}

const test = base.extend<{ console: WriteInsConsole }>({
  console: async ({}, use) => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'peervote-e2e-write-ins-'));
    const surveysDir = path.join(dataDir, 'surveys');
    await cp(path.join(ROOT, 'surveys'), surveysDir, { recursive: true });
    await writeFile(path.join(surveysDir, 'operators.yaml'), OPERATORS);
    const env = { DATA_DIR: dataDir, SURVEYS_DIR: surveysDir };
    const server = await startServer({
      env: { ...env, CONSOLE_RATE_LIMIT_MAX: '0', RATE_LIMIT_MAX: '0' },
      ports: { base: Number(process.env.E2E_PORT ?? 4322) + 1, span: 20 },
    });
    try {
      await use({
        origin: `http://localhost:${server.port}`,
        results: (...args) => runResults(args, env),
        async writeIn(n, spelling) {
          const form = new FormData();
          for (const [name, value] of demoBallotFields(n)) form.append(name, name === 'writeins[0][name]' ? spelling : value);
          const query = new URLSearchParams({ project_id: SURVEY, project_type: 'form', sheet: 'Top Doctors 2027 ballots' });
          const sent = await fetch(`${server.url}/api/survey?${query}`, { method: 'POST', body: form, headers: { Origin: server.url } });
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

/** The nominee's counted votes in Neurosurgery, as `results tally` prints them. */
async function tallied(server: WriteInsConsole): Promise<number> {
  const run = await server.results('tally', SURVEY, '--quiet');
  expect(run.code, run.stderr).toBe(0);
  const row = run.stdout.split('\r\n').find((line) => line.startsWith('Surgery,Neurosurgery,') && line.split(',')[3] === NOMINEE.id);
  return row ? Number(row.split(',')[6]) : 0;
}

test('a reviewer attaches three spellings of one name to a nominee, and the tally counts them; Undo, and it counts them no more', async ({
  page,
  console: server,
}, info) => {
  for (const [n, spelling] of ['Dr. Hannah Weiss', 'hannah  weiss', 'HANNAH WEISS, MD'].entries()) await server.writeIn(10 + n, spelling);
  await server.writeIn(20, 'Someone Else Entirely');
  const before = await tallied(server);
  await enrol(page, server, REVIEWER);

  await page.getByRole('link', { name: 'Top Doctors 2027' }).click();
  await page.getByRole('link', { name: 'Write-ins, grouped by name' }).click();
  await expect(page).toHaveURL(`${server.origin}/console/${SURVEY}/write-ins/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Write-ins: Top Doctors 2027' })).toBeVisible();
  const groups = page
    .getByRole('list', { name: 'Groups of write-ins, those waiting first' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 2 }) });
  const weiss = groups.filter({ hasText: 'HANNAH WEISS, MD' });
  await expect(weiss).toHaveCount(1);
  await expect(weiss).toContainText('Waiting: not counted until decided');
  await expect(weiss).toContainText('“Dr. Hannah Weiss” (1), “HANNAH WEISS, MD” (1), “hannah  weiss” (1)');
  // A reviewer sees when, never who.
  await expect(page.getByText('@example.org')).toHaveCount(0);
  await atWidth(page, info, 1280, 'write-ins');
  await atWidth(page, info, 360, 'write-ins');
  await page.setViewportSize({ width: 1280, height: 900 });

  // The ballot's search, on the group: each match with what the tally would count before and after.
  const search = weiss.getByRole('searchbox', { name: 'Find a nominee' });
  await search.fill('Hannah Fischer');
  await search.press('Enter');
  const again = groups.filter({ hasText: 'HANNAH WEISS, MD' });
  const match = again.getByRole('listitem').filter({ hasText: NOMINEE.name });
  await expect(match).toContainText(`In Neurosurgery: ${before} vote${before === 1 ? '' : 's'} now, ${before + 3} with this group.`);
  await atWidth(page, info, 360, 'write-ins-search');
  await atWidth(page, info, 1280, 'write-ins-search');

  // By keyboard: the reason, then Attach.
  await match.getByLabel('Reason').fill('Same licence number on all three ballots');
  await match.getByLabel('Reason').press('Tab');
  await expect(match.getByRole('button', { name: 'Attach' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/write-ins\/\?group=[0-9a-f]{16}&done=attach#group-/);
  await expect(page.getByRole('status').first()).toContainText('counts for Hannah Fischer-Choi, 3 write-ins');
  const attached = groups.filter({ hasText: 'HANNAH WEISS, MD' });
  await expect(attached).toContainText(`Counts for ${NOMINEE.name} (${NOMINEE.id}), by Demo Reviewer at`);
  await expect(attached).toContainText('Reason: Same licence number on all three ballots');
  expect(await tallied(server)).toBe(before + 3);
  await atWidth(page, info, 360, 'write-ins-attached');
  await atWidth(page, info, 1280, 'write-ins-attached');

  // Signed in the trail as the console's act, with the operator's name.
  const trail = await server.results('audit', SURVEY);
  const resolved = trail.stdout.split('\r\n').find((line) => line.includes(',writeins resolve,'));
  expect(resolved).toContain('Demo Reviewer');
  expect(resolved).toContain(',console,');

  await attached.getByLabel('Reason').fill('A different surgeon after all');
  await attached.getByRole('button', { name: 'Undo' }).click();
  await expect(page).toHaveURL(/done=undo/);
  await expect(page.getByRole('status').first()).toContainText('waits for a decision again, and the tally counts it no more');
  await expect(groups.filter({ hasText: 'HANNAH WEISS, MD' })).toContainText('Waiting: not counted until decided');
  expect(await tallied(server)).toBe(before);
  await expectNoAxeViolations(page);
});
