import { expect, test } from './fresh-server.ts';
import { expectFreshForm, fillBallot, RECEIVED } from './kept-ballot-helpers.ts';

// Playwright turns the browser's back/forward cache off; a voter's browser has it on.
test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    ignoreDefaultArgs: ['--disable-back-forward-cache'],
    args: [
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  },
});

test('Back after a submit shows a fresh form that matches what it will send (the page kept whole)', async ({ page }) => {
  await page.addInitScript(() => addEventListener('pageshow', (event) => document.documentElement.setAttribute('data-restored', String(event.persisted))));
  await page.goto('/top-doctors-demo/');
  await fillBallot(page, 'bfcache');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText(RECEIVED)).toBeVisible();
  // A page restored from the cache fires no load event: wait for the address only.
  await page.goBack({ waitUntil: 'commit' });
  await expect(page.locator('html')).toHaveAttribute('data-restored', 'true');
  await expectFreshForm(page);
});
