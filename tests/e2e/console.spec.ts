import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, expectNoAxeViolations, test as base } from './fixtures.ts';
import { startServer } from '../support/server.mjs';
import { runResults } from '../support/results-cli.ts';
import { NOW_HEADER } from './fresh-server.ts';
import { addAuthenticator, CONSOLE_LAUNCH, virtualAuthenticator } from './virtual-authenticator.ts';
import { createDatabase } from '../../src/server/db/database.ts';
import { appendAudit } from '../../src/server/db/audit.repository.ts';

// The console with a real passkey: Chromium's virtual authenticator (a platform authenticator
// that keeps discoverable passkeys and verifies its user), the enrolment link printed by the
// command line, the console at localhost (a passkey cannot belong to an IP address).

/** A server of the test's own, on the repository's surveys and operators file, with an empty database. */
interface ConsoleServer {
  /** The console's origin: http://localhost:PORT. */
  origin: string;
  /** `npm run results -- operators link EMAIL` against this server's database: the link it prints. */
  link(email: string): Promise<string>;
  /** Appends entries to a survey's audit trail in this server's database, as the commands do. */
  audit(projectId: string, entries: ReadonlyArray<{ actor: string; action: string; subject?: string; reason?: string }>): Promise<void>;
}

const test = base.extend<{ console: ConsoleServer }>({
  console: async ({}, use) => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'peervote-e2e-console-'));
    const server = await startServer({
      env: { DATA_DIR: dataDir, PEERVOTE_TEST_HOOKS: '1', CONSOLE_RATE_LIMIT_MAX: '0' },
      ports: { base: Number(process.env.E2E_PORT ?? 4322) + 1, span: 20 },
    });
    const origin = `http://localhost:${server.port}`;
    try {
      await use({
        origin,
        async link(email) {
          const run = await runResults(['operators', 'link', email, '--base-url', origin], { DATA_DIR: dataDir });
          expect(run.code, run.stderr).toBe(0);
          return run.stdout.trim();
        },
        async audit(projectId, entries) {
          const { db } = createDatabase({ sqliteFile: path.join(dataDir, 'peervote.sqlite'), sqliteSynchronous: 'NORMAL', pgPoolMax: 1 });
          try {
            for (const entry of entries) await appendAudit(db, { projectId, ...entry });
          } finally {
            await db.destroy();
          }
        },
      });
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
});

// localhost must resolve here: the suite's browser resolves 127.0.0.1 alone.
test.use({ launchOptions: CONSOLE_LAUNCH });

const OWNER = 'owner@metrohealth.example';
const AUDITOR = 'auditor@metrohealth.example';

test('an owner makes a passkey from the printed link, signs out, and signs in again with it', async ({ page, console: server }) => {
  await virtualAuthenticator(page);
  const link = await server.link(OWNER);
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Create a passkey' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Create a passkey' }).click();
  await expect(page).toHaveURL(`${server.origin}/console/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Your surveys' })).toBeVisible();
  await expect(page.getByText('Signed in as Demo Owner')).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole('link', { name: 'Top Doctors 2027' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Participation' })).toBeVisible();
  await expect(page.getByText('Your role: owner')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Manage operators' })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(`${server.origin}/console/sign-in?signed_out=1`);
  await expect(page.getByRole('status')).toHaveText('You are signed out.');
  await expectNoAxeViolations(page);
  // Signed out on the server: the console's pages lead to the sign-in page again.
  await page.goto(`${server.origin}/console/top-doctors-demo/`);
  await expect(page).toHaveURL(`${server.origin}/console/sign-in`);

  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(`${server.origin}/console/`);
  await page.getByRole('link', { name: 'Sessions and passkeys' }).click();
  await expect(page.getByRole('list', { name: 'Where you are signed in' }).getByRole('listitem').filter({ hasText: '(this one)' })).toBeVisible();
  await expectNoAxeViolations(page);

  // The link made its passkey: opened again, it says so.
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'This enrolment link has been used' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'sign in with that passkey' })).toBeVisible();
});

test('an operator adds a passkey on a new device, removes the old one after a passkey check, and signs in with the new one', async ({
  page,
  console: server,
}) => {
  const { cdp, id: oldDevice } = await virtualAuthenticator(page);
  await page.goto(await server.link(OWNER));
  await page.getByRole('button', { name: 'Create a passkey' }).click();
  await expect(page).toHaveURL(`${server.origin}/console/`);

  // The old device goes; a new one takes its place.
  await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: oldDevice });
  await addAuthenticator(cdp);
  await page.getByRole('link', { name: 'Sessions and passkeys' }).click();
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('status')).toHaveText('Your new passkey is added.');
  const passkeys = page.getByRole('list', { name: 'Passkeys that sign you in' }).getByRole('listitem');
  await expect(passkeys).toHaveCount(2);
  await expectNoAxeViolations(page);

  // Six minutes on, the sign-in's check has lapsed: removing a passkey asks for one again, which the new device gives.
  await page.setExtraHTTPHeaders({ [NOW_HEADER]: new Date(Date.now() + 6 * 60 * 1000).toISOString() });
  await page.getByRole('button', { name: 'Remove passkey 1' }).click();
  await expect(page.getByRole('status')).toHaveText('The passkey is removed: it signs no one in any more.');
  await expect(passkeys).toHaveCount(1);
  await expect(page.getByRole('button', { name: /^Remove/ })).toHaveCount(0);

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(`${server.origin}/console/`);
});

test('an expired link is refused with a page that says what to do', async ({ page, console: server }) => {
  const link = await server.link(AUDITOR);
  await page.setExtraHTTPHeaders({ [NOW_HEADER]: new Date(Date.now() + 16 * 60 * 1000).toISOString() });
  const answer = await page.goto(link);
  expect(answer?.status()).toBe(410);
  await expect(page.getByRole('heading', { level: 1, name: 'This enrolment link has expired' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'sign-in page' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create a passkey' })).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test('an auditor sees the same pages without controls, and the server refuses an owner act of theirs', async ({ page, console: server }) => {
  await virtualAuthenticator(page);
  await page.goto(await server.link(AUDITOR));
  await page.getByRole('button', { name: 'Create a passkey' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your surveys' })).toBeVisible();
  // The demo survey alone, the one its role is on.
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(['Top Doctors 2027']);
  await page.getByRole('link', { name: 'Top Doctors 2027' }).click();
  await expect(page.getByText('Your role: auditor')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Manage operators' })).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Operators' })).toHaveCount(0);
  expect((await page.goto(`${server.origin}/console/operators/`))?.status()).toBe(404);

  await page.goto(`${server.origin}/console/`);
  const refused = await page.evaluate(async () => {
    const response = await fetch(`/api/console/operators/${encodeURIComponent('owner@metrohealth.example')}/end-sessions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Console-CSRF': document.body.dataset.csrf ?? '' },
      body: '{}',
    });
    return [response.status, (await response.json()).error];
  });
  expect(refused).toEqual([403, 'forbidden']);
});

test('an auditor reads the audit trail, filters it by action and checks the chain', async ({ page, console: server }) => {
  await server.audit('top-doctors-demo', [
    { actor: 'Demo Owner', action: 'exclude', subject: 'b-1', reason: 'a duplicate' },
    { actor: 'Demo Owner', action: 'include', subject: 'b-1', reason: 'not a duplicate after all' },
    { actor: 'sam', action: 'writeins publish', reason: 'reviewed' },
  ]);
  await virtualAuthenticator(page);
  await page.goto(await server.link(AUDITOR));
  await page.getByRole('button', { name: 'Create a passkey' }).click();
  await page.getByRole('link', { name: 'Top Doctors 2027' }).click();
  await page.getByRole('link', { name: 'Audit trail' }).first().click();
  await expect(page).toHaveURL(`${server.origin}/console/top-doctors-demo/audit/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Audit trail: Top Doctors 2027' })).toBeVisible();
  const rows = page.getByRole('table').locator('tbody tr');
  await expect(rows).toHaveCount(3);
  await expectNoAxeViolations(page);

  // By keyboard alone: the action's select, then Filter.
  await page.getByLabel('Action').focus();
  await page.getByLabel('Action').selectOption('include');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Filter' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`${server.origin}/console/top-doctors-demo/audit/?actor=&action=include`);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('not a duplicate after all');

  // The page's script brings the answer into the status line, the page and its filter as they were.
  await page.getByRole('button', { name: 'Check the chain' }).click();
  await expect(page.getByRole('status')).toHaveText(/^verified: 3 entries, head [0-9a-f]{64}$/);
  await expect(page).toHaveURL(`${server.origin}/console/top-doctors-demo/audit/?actor=&action=include`);
  await expect(rows).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Check the chain' })).toBeEnabled();
  await expectNoAxeViolations(page);
});

test("the ballot page loads nothing of the console's code", async ({ page, request, console: server }) => {
  const scripts: string[] = [];
  page.on('request', (asked) => {
    if (asked.resourceType() === 'script') scripts.push(asked.url());
  });
  /** The text of every script the page asked for so far, fetched again by URL. */
  const loaded = async () => Promise.all(scripts.map(async (url) => (await request.get(url)).text()));

  // The page's islands have hydrated when goto returns (tests/e2e/fixtures.ts): every script of theirs has been asked for.
  await page.goto(`${server.origin}/top-doctors-demo/`);
  await expect(page.getByRole('button', { name: 'Submit' })).toBeEnabled();
  const ballot = await loaded();
  expect(ballot.length).toBeGreaterThan(0);
  for (const script of ballot) {
    expect(script).not.toContain('startRegistration');
    expect(script).not.toContain('/api/console/');
  }

  // The console's own page loads it: the check above would have seen it.
  scripts.length = 0;
  await page.goto(`${server.origin}/console/sign-in`);
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeEnabled();
  expect((await loaded()).some((script) => script.includes('/api/console/'))).toBe(true);
});
