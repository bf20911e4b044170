import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, expectNoAxeViolations, test as base } from './fixtures.ts';
import { nominate } from './ballot-helpers.ts';
import { startServer } from '../support/server.mjs';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * A server of its own whose personal links live in a private folder, as `invite` writes them,
 * and a way to run `npm run results` on its database.
 */
const test = base.extend<{ vote: { url: string; results: (args: string[]) => Promise<string> } }>({
  vote: async ({}, use) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'peervote-e2e-vote-'));
    const env = { DATA_DIR: path.join(dir, 'data'), PEERVOTE_PRIVATE_DIR: path.join(dir, 'private'), RATE_LIMIT_MAX: '0' };
    const server = await startServer({ env, ports: { base: Number(process.env.E2E_PORT ?? 4322) + 1, span: 20 } });
    try {
      // The API migrates its database on the first request; the tools then find it.
      await fetch(`${server.url}/api/health`);
      const results = async (args: string[]) =>
        (await run(process.execPath, ['bin/results.mjs', ...args], { cwd: ROOT, env: { ...process.env, ...env } })).stdout;
      await use({ url: server.url, results });
    } finally {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  },
  baseURL: async ({ vote }, use) => use(vote.url),
});

test('a personal link made by invite opens prefilled; the thank-you page gives a receipt, and the check form confirms it', async ({ page, vote }) => {
  const roster = path.join(path.dirname(test.info().outputPath('x')), 'roster.csv');
  await writeFile(
    roster,
    'email,name-first,name-last,medical-credential,medical-license,medical-practice\nnoor.haddad@example.org,Noor,Haddad,DO,DO-550021,Harbor Family Practice\n',
  );
  const links = await vote.results(['invite', 'top-doctors-demo', '--roster', roster, '--base-url', vote.url, '--by', 'e2e']);
  const url = links.trim().split('\r\n')[1].split(',')[2];
  expect(url).toMatch(new RegExp(`^${vote.url}/top-doctors-demo/[A-Za-z0-9_-]{22}$`));

  await page.goto(url);
  await expect(page.getByRole('textbox', { name: 'First name' })).toHaveValue('Noor');
  await expect(page.getByRole('textbox', { name: 'First name' })).not.toBeEditable();
  await expect(page.getByRole('textbox', { name: 'Medical license number' })).toHaveValue('DO-550021');
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue('noor.haddad@example.org');
  await page.getByRole('textbox', { name: 'Medical practice' }).fill('Harbor Family Practice');
  await nominate(page, 'Cardiology, First Nomination', 'jose alv', 'José Álvarez-Ruiz');
  await page.getByRole('checkbox', { name: 'I Affirm' }).check();
  await page.getByRole('button', { name: 'Submit' }).click();

  await expect(page).toHaveURL(/\/top-doctors-demo\/thankyou$/);
  await expect(page.getByText('Your ballot has been received.')).toBeVisible();
  const code = page.locator('.receipt-code');
  await expect(code).toHaveText(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  const receipt = (await code.textContent())!;
  await expectNoAxeViolations(page);

  await page.getByRole('link', { name: 'receipt check' }).click();
  await expect(page).toHaveURL(/\/top-doctors-demo\/receipt\?code=/);
  await expect(page.getByRole('heading', { name: 'Check your receipt' })).toBeVisible();
  await expect(page.getByText(new RegExp(`^Your ballot with the receipt ${receipt} was received on .+ UTC\\.$`))).toBeVisible();
  await expectNoAxeViolations(page);

  // Typed by hand, in lower case and without dashes, it is the same receipt; a wrong one is not found.
  await page.getByRole('textbox', { name: 'Receipt code' }).fill(receipt.replaceAll('-', '').toLowerCase());
  await page.getByRole('button', { name: 'Check' }).click();
  await expect(page.getByText(new RegExp(`^Your ballot with the receipt ${receipt} was received`))).toBeVisible();
  const wrong = receipt.startsWith('Z') ? 'YYYY-YYYY-YYYY' : 'ZZZZ-ZZZZ-ZZZZ';
  await page.getByRole('textbox', { name: 'Receipt code' }).fill(wrong);
  await page.getByRole('button', { name: 'Check' }).click();
  await expect(page.getByText(`No ballot with the receipt ${wrong} has been received. Check the code against your thank-you page.`)).toBeVisible();

  const status = await vote.results(['receipt', 'top-doctors-demo', receipt]);
  expect(status).toContain('by the personal link.');
  expect(status).toContain('The tally counts it: all 1 of its votes.');
});
