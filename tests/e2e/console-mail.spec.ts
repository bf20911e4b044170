import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test as base } from './fixtures.ts';
import { startServer } from '../support/server.mjs';
import { runResults } from '../support/results-cli.ts';
import { CONSOLE_LAUNCH } from './virtual-authenticator.ts';
import { atWidth, enrol } from './console-pages.ts';

// A manager sends the invitations from the console, with a real passkey (Chromium's virtual
// authenticator), on npm start's file transport: a preview and a dry run first, then "Send
// invitations", its progress said as it goes, and one .eml file a person; the page at a phone's
// width and a laptop's, axe clean.

const ROOT = path.resolve(import.meta.dirname, '../..');
const SURVEY = 'top-doctors-demo';
const MANAGER = 'manager@metrohealth.example';
const OPERATORS = `operators:
  - email: ${MANAGER}
    name: Demo Manager
    roles:
      ${SURVEY}: manager
`;
const PEOPLE = ['ada', 'ben', 'cy', 'dee'].map((name) => `${name}@clinic.example`);
/** Where the screenshots of the page are kept for the guide's readers to see (SCREENS_DIR), besides the test's own results. */
const SCREENS = process.env.SCREENS_DIR;

/** A server of the test's own, on a copy of the repository's surveys with its own operators file, an empty database and the file transport. */
interface MailConsole {
  origin: string;
  dataDir: string;
  results(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
}

const test = base.extend<{ console: MailConsole }>({
  console: async ({}, use) => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'peervote-e2e-mail-'));
    const surveysDir = path.join(dataDir, 'surveys');
    await cp(path.join(ROOT, 'surveys'), surveysDir, { recursive: true });
    await writeFile(path.join(surveysDir, 'operators.yaml'), OPERATORS);
    const env = { DATA_DIR: dataDir, SURVEYS_DIR: surveysDir, PEERVOTE_PRIVATE_DIR: path.join(dataDir, 'private') };
    const roster = path.join(dataDir, 'roster.csv');
    await writeFile(roster, `email,name-first,name-last\n${PEOPLE.map((email) => `${email},${email.split('@')[0]},Test`).join('\n')}\n`);
    const server = await startServer({
      env: { ...env, CONSOLE_RATE_LIMIT_MAX: '0', SMTP_URL: '' },
      ports: { base: Number(process.env.E2E_PORT ?? 4322) + 1, span: 20 },
    });
    try {
      const invited = await runResults(['invite', SURVEY, '--roster', roster, '--out', path.join(dataDir, 'links.csv')], env);
      expect(invited.code, invited.stderr).toBe(0);
      await use({ origin: `http://localhost:${server.port}`, dataDir, results: (...args) => runResults(args, env) });
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
});

test.use({ launchOptions: CONSOLE_LAUNCH });

/** The .eml files the file transport wrote for the survey, and the address each is to. */
async function written(dataDir: string): Promise<string[]> {
  const folder = path.join(dataDir, 'mail', SURVEY);
  if (!existsSync(folder)) return [];
  const files = (await readdir(folder)).filter((name) => name.endsWith('.eml'));
  return Promise.all(files.map(async (name) => /^To: (.*)$/m.exec(await readFile(path.join(folder, name), 'utf8'))?.[1]?.trim() ?? ''));
}

test('a manager previews an invitation, counts a dry run, then sends the invitations and watches them go: one .eml a person', async ({
  page,
  console: server,
}, info) => {
  await enrol(page, server, MANAGER);
  await page.getByRole('link', { name: 'Top Doctors 2027' }).click();
  await page.getByRole('link', { name: 'Mail', exact: true }).click();
  await expect(page).toHaveURL(`${server.origin}/console/${SURVEY}/mail/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Mail: Top Doctors 2027' })).toBeVisible();

  // One person's invitation, as it will leave.
  await page.getByLabel('Address on the roster (the first one if empty)').fill(PEOPLE[1]);
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.locator('.mail-preview dd').first()).toHaveText(PEOPLE[1]);
  await expect(page.frameLocator('iframe.mail-preview-html').getByText('ben', { exact: false }).first()).toBeVisible();
  await atWidth(page, info, 1280, 'console-mail-preview', SCREENS);
  await atWidth(page, info, 360, 'console-mail-preview', SCREENS);
  // A dry run: who would get one, and who is skipped.
  await page.getByRole('button', { name: 'Count who would get one' }).click();
  const dry = page.getByRole('status').filter({ hasText: 'A dry run of invitations' });
  await expect(dry).toContainText('5 people would get one; skipped:');
  await expect(dry).toContainText('no_address');
  // The preview stays beside it.
  await expect(page.locator('.mail-preview dd').first()).toHaveText(PEOPLE[1]);
  expect(await written(server.dataDir)).toEqual([]);
  await atWidth(page, info, 1280, 'console-mail', SCREENS);
  await atWidth(page, info, 360, 'console-mail', SCREENS);

  // One a second: the run is seen going, then done, without leaving the page.
  await page.getByLabel('Invitations: messages a minute').fill('60');
  await page.getByRole('button', { name: 'Send invitations' }).click();
  const progress = page.locator('#run').getByRole('status').first();
  await expect(progress).toContainText(/Sending invitations: \d+ sent, 0 failed, \d+ left of 5\./);
  await atWidth(page, info, 1280, 'console-mail-sending', SCREENS);
  await atWidth(page, info, 360, 'console-mail-sending', SCREENS);
  await expect(progress).toContainText('Sent: invitations. 5 sent, 0 failed, 0 bounced.', { timeout: 20_000 });
  const to = await written(server.dataDir);
  expect(to).toHaveLength(5);
  for (const email of PEOPLE) expect(to.filter((one) => one === email)).toHaveLength(1);

  await page.reload();
  await expect(page.getByRole('button', { name: 'Send invitations' })).toBeVisible();
  await expect(page.getByRole('table')).toContainText(PEOPLE[0]);
  await atWidth(page, info, 1280, 'console-mail-sent', SCREENS);
  await atWidth(page, info, 360, 'console-mail-sent', SCREENS);
  // The trail names the manager.
  await page.getByRole('link', { name: 'Audit trail' }).click();
  await expect(page.getByRole('table')).toContainText('send run started');
  await expect(page.getByRole('table')).toContainText('Demo Manager');
});
