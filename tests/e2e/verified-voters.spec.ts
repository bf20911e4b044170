import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './fixtures.ts';
import { islandsHydrated } from './waits.ts';
import { startServer } from '../support/server.mjs';

// Verified voters and changed ballots in the browser, on the verified-vote survey: the code
// step (with and without JavaScript), a second ballot that replaces the first, and what the
// thank-you page and the receipt check say of it. Each test has a server and a mail folder of its own.

const SLUG = 'verified-vote';
const SHOTS = process.env.PEERVOTE_SCREENSHOTS;

const test = base.extend<{ server: { url: string; mailDir: string } }>({
  server: async ({}, use) => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'peervote-e2e-verify-'));
    const server = await startServer({
      env: { DATA_DIR: dataDir, RATE_LIMIT_MAX: '0', SEARCH_RATE_LIMIT_MAX: '0', LINK_RATE_LIMIT_MAX: '0', PEERVOTE_TEST_HOOKS: '1' },
      ports: { base: Number(process.env.E2E_PORT ?? 4322) + 1, span: 20 },
    });
    try {
      await use({ url: server.url, mailDir: path.join(dataDir, 'mail', SLUG) });
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
  baseURL: async ({ server }, use) => use(server.url),
});

/** The codes mailed so far, oldest first, read from the file transport's messages. */
async function mailedCodes(mailDir: string): Promise<string[]> {
  const names = (await readdir(mailDir).catch(() => [])).filter((name) => name.endsWith('.eml')).sort();
  const texts = await Promise.all(names.map((name) => readFile(path.join(mailDir, name), 'utf8')));
  return texts.map((text) => /^Subject: (\d{6}) /m.exec(text)?.[1] ?? '');
}

/** The newest code, once the count of messages has reached `count`. */
async function codeNumber(mailDir: string, count: number): Promise<string> {
  await expect.poll(async () => (await mailedCodes(mailDir)).length).toBe(count);
  return (await mailedCodes(mailDir)).at(-1)!;
}

/** Screenshots at a phone's and a desktop's width, when PEERVOTE_SCREENSHOTS names a folder. */
async function shots(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
}

async function verify(page: Page, mailDir: string, address: string, count: number): Promise<void> {
  await page.getByRole('textbox', { name: 'Your email address' }).fill(address);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await expect(page.getByRole('status')).toContainText('We sent a code to');
  await page.getByRole('textbox', { name: 'Code' }).fill(await codeNumber(mailDir, count));
  await page.getByRole('button', { name: 'Check the code' }).click();
  await expect(page.getByRole('form', { name: 'Ballot' })).toBeVisible();
}

async function fillBallot(page: Page, first: string, nominee: string): Promise<void> {
  await page.getByRole('textbox', { name: 'First name' }).fill(first);
  await page.getByRole('textbox', { name: 'Last name' }).fill('Voter');
  const slot = page.getByRole('combobox', { name: 'Cardiology, First Nomination' });
  await slot.fill(nominee.split(' ')[0]);
  await page
    .getByRole('option', { name: new RegExp(`^${nominee}`) })
    .first()
    .click();
  await expect(slot).toHaveValue(nominee);
}

test('a voter proves an address, is stopped after five wrong codes, votes, and changes the ballot: the old receipt says it was replaced', async ({
  page,
  server,
}) => {
  // Four accessibility checks and two ballots on a two-core machine.
  test.setTimeout(120_000);
  await page.goto(`/${SLUG}/`);
  await islandsHydrated(page);
  await expect(page.getByRole('heading', { name: 'First, confirm who you are' })).toBeVisible();
  await expect(page.getByRole('form', { name: 'Ballot' })).toBeHidden();
  await expectNoAxeViolations(page);
  await shots(page, 'verify-ask');

  await page.getByRole('textbox', { name: 'Your email address' }).fill('ann@example.org');
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await expect(page.getByRole('status')).toHaveText('We sent a code to a•••@e•••.org. It is valid for 15 minutes.');
  const code = page.getByRole('textbox', { name: 'Code' });
  await expect(code).toBeFocused();
  await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
  await expectNoAxeViolations(page);
  await shots(page, 'verify-enter-code');

  const right = await codeNumber(server.mailDir, 1);
  const wrong = right === '000000' ? '111111' : '000000';
  for (let i = 0; i < 4; i++) {
    await code.fill(wrong);
    await page.getByRole('button', { name: 'Check the code' }).click();
    await expect(page.getByRole('alert')).toHaveText('That code is not right. Check the message and type the 6 digits again.');
    await expect(code).toHaveAttribute('aria-invalid', 'true');
  }
  await code.fill(wrong);
  await page.getByRole('button', { name: 'Check the code' }).click();
  await expect(page.getByRole('alert')).toHaveText('Too many tries: ask for a new code.');
  await expectNoAxeViolations(page);
  await shots(page, 'verify-too-many-tries');

  await page.getByRole('button', { name: 'Send me a code' }).click();
  await page.getByRole('textbox', { name: 'Code' }).fill(await codeNumber(server.mailDir, 2));
  await page.getByRole('button', { name: 'Check the code' }).click();
  await expect(page.getByRole('form', { name: 'Ballot' })).toBeVisible();
  await fillBallot(page, 'Ann', 'Bo Lindqvist');
  await page.getByRole('checkbox', { name: 'I Affirm' }).check();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Your ballot has been received.')).toBeVisible();
  // The page writes the receipt as its script reads the answer: read it once it is there.
  const receiptCode = page.locator('[data-receipt-code]');
  await expect(receiptCode).toHaveText(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  const firstReceipt = (await receiptCode.textContent())!;

  // The same voter again: a new code, a new ballot that replaces the first.
  await page.goto(`/${SLUG}/`);
  await islandsHydrated(page);
  await verify(page, server.mailDir, 'ann@example.org', 3);
  await fillBallot(page, 'Ann', 'Chen Wei');
  await page.getByRole('checkbox', { name: 'I Affirm' }).check();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Your ballot has been received.')).toBeVisible();
  await expect(page.getByText(/^Your ballot replaced the one sent on \d{1,2} \w+ \d{4} at \d\d:\d\d UTC\.$/)).toBeVisible();
  await expectNoAxeViolations(page);
  await shots(page, 'verify-replaced-thank-you');

  await page.goto(`/${SLUG}/receipt`);
  await page.getByRole('textbox', { name: 'Receipt code' }).fill(firstReceipt);
  await page.getByRole('button', { name: 'Check' }).click();
  await expect(page.getByText('replaced by a later ballot on', { exact: false })).toBeVisible();
  const stats = await (await page.request.get(`/api/survey/stats/verified-vote-2027`)).json();
  expect(stats.ballots).toBeGreaterThanOrEqual(1);
});

test('a personal link reopens on its last ballot, and sending again replaces it', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto(`/${SLUG}/vv-ines-7Qm2xK9pLw`);
  await islandsHydrated(page);
  // A personal link needs no code.
  await expect(page.getByRole('heading', { name: 'First, confirm who you are' })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'First name' })).toHaveValue('Ines');
  const slot = page.getByRole('combobox', { name: 'Cardiology, First Nomination' });
  await slot.fill('Bo');
  await page
    .getByRole('option', { name: /^Bo Lindqvist/ })
    .first()
    .click();
  await page.getByRole('checkbox', { name: 'I Affirm' }).check();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Your ballot has been received.')).toBeVisible();

  await page.goto(`/${SLUG}/vv-ines-7Qm2xK9pLw`);
  await islandsHydrated(page);
  await expect(slot).toHaveValue('Bo Lindqvist');
  await slot.fill('Chen');
  await page
    .getByRole('option', { name: /^Chen Wei/ })
    .first()
    .click();
  await page.getByRole('checkbox', { name: 'I Affirm' }).check();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText(/^Your ballot replaced the one sent on /)).toBeVisible();
  await page.goto(`/${SLUG}/vv-ines-7Qm2xK9pLw`);
  await islandsHydrated(page);
  await expect(slot).toHaveValue('Chen Wei');
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('the code step is a pair of forms, and the ballot ends on the thank-you page', async ({ page, server, baseURL }) => {
    await page.goto(`/${SLUG}/`);
    await page.getByRole('textbox', { name: 'Your email address' }).fill('nojs@example.org');
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await expect(page.getByRole('heading', { name: 'Check your mail' })).toBeVisible();
    await shots(page, 'verify-nojs-enter-code');
    await page.getByRole('textbox', { name: 'Code' }).fill(await codeNumber(server.mailDir, 1));
    await page.getByRole('button', { name: 'Check the code' }).click();
    await expect(page).toHaveURL(`${baseURL}/${SLUG}/#ballot`);
    await page.getByRole('textbox', { name: 'First name' }).fill('Nora');
    await page.getByRole('textbox', { name: 'Last name' }).fill('Script');
    await page.getByRole('combobox', { name: 'Cardiology, First Nomination' }).fill('Dr. Typed Without Script');
    await page.getByRole('checkbox', { name: 'I Affirm' }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page).toHaveURL(`${baseURL}/${SLUG}/thankyou`);
    await expect(page.getByText('Your ballot has been received.')).toBeVisible();
  });
});
