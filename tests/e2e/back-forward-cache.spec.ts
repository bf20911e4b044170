import { expect, test } from './fixtures.ts';
import { expectFreshForm, fillBallot, RECEIVED } from './kept-ballot-helpers.ts';
import { CHROMIUM_PATH, LOCAL_HOSTS_ONLY, PLAYWRIGHT_CHROMIUM_FLAGS } from '../support/chromium.ts';

// Playwright turns the browser's back/forward cache off; a voter's browser has it on.
test.use({
  launchOptions: {
    executablePath: CHROMIUM_PATH,
    ignoreDefaultArgs: ['--disable-back-forward-cache'],
    args: [LOCAL_HOSTS_ONLY, ...PLAYWRIGHT_CHROMIUM_FLAGS],
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
