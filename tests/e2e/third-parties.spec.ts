import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { nominate } from './ballot-helpers.ts';
import { gaEvents, hitsOf, interceptThirdParties, simulateTranslation } from './third-party-stubs.ts';
import { afterAppTimers } from './waits.ts';
import { TRANSLATE_DELAY_MS } from '../../src/survey/config/third-parties.ts';

// The members-choice sample survey configures every third party; the demo survey none.
const MEMBERS = { analytics: 'G-MC2027CMS01', pixel: '4829103756612044', linkedin: '5123456' };
const VENDOR_SCRIPT = /googletagmanager|facebook\.net|licdn|translate\.google/;

/** Fills and submits a members-choice ballot through the demo link: two nominations and a write-in. */
async function voteOnMembersChoice(page: Page): Promise<void> {
  await page.getByRole('textbox', { name: 'Member name' }).fill('Dr. Ada Member');
  await nominate(page, 'Dermatology, First Nomination', 'hana walk', 'Hana Walker');
  await nominate(page, 'Neurology, First Nomination', 'david cla', 'David Clark');
  await page.getByRole('button', { name: 'Add Write-In' }).click();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Dr. Write In');
  await page.getByRole('combobox', { name: 'Category' }).selectOption({ label: 'Neurology' });
  await page.getByRole('checkbox', { name: 'I Affirm' }).check();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/members-choice\/thankyou$/);
}

/** When the page loaded, and when each vendor script was asked for, on the page's clock. */
async function scriptTimings(page: Page) {
  return page.evaluate((pattern) => {
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    const scripts = performance.getEntriesByType('resource').filter((entry) => new RegExp(pattern).test(entry.name));
    return { load: navigation.loadEventStart, starts: scripts.map((entry) => entry.startTime) };
  }, VENDOR_SCRIPT.source);
}

test('with nothing configured, the demo survey loads no third-party code at all', async ({ page }) => {
  const hits = await interceptThirdParties(page);
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  // The page's timers run on Playwright's clock, so that each page can be taken past the translate widget's delay at once.
  await page.clock.install();
  for (const path of ['/top-doctors-demo/', '/top-doctors-demo/thankyou']) {
    await page.goto(path);
    // Past the translate widget's delay, and a request later: nothing starts late either.
    await afterAppTimers(page, TRANSLATE_DELAY_MS + 1000);
  }
  expect(hits.map((hit) => hit.url.href)).toEqual([]);
  expect(scripts.filter((path) => /ThirdParties|start|analytics|pixels|translate|sentry/i.test(path))).toEqual([]);
  await expect(page.locator('#peervote-third-parties')).toHaveCount(0);
});

test('a survey that configures them loads GA4, the Facebook pixel and LinkedIn Insight once each, with its ids, after the page has loaded', async ({
  page,
  baseURL,
}) => {
  const hits = await interceptThirdParties(page);
  await page.goto('/members-choice/');
  await expect.poll(() => hits.filter((hit) => hit.kind.endsWith('-hit') && hit.url.searchParams.get('cmd') !== 'js').length).toBe(3);
  await expect.poll(() => hitsOf(hits, 'translate-script').length).toBe(1);

  expect(hitsOf(hits, 'ga-script').map((hit) => hit.url.searchParams.get('id'))).toEqual([MEMBERS.analytics]);
  const pageView = hitsOf(hits, 'ga-hit').find((hit) => hit.url.searchParams.get('cmd') === 'config')!;
  expect(pageView.url.searchParams.get('tid')).toBe(MEMBERS.analytics);
  expect(pageView.url.searchParams.get('dl')).toBe(`${baseURL}/members-choice/`);
  expect(hitsOf(hits, 'fb-script')).toHaveLength(1);
  expect(hitsOf(hits, 'fb-hit').map((hit) => [hit.url.searchParams.get('id'), hit.url.searchParams.get('ev')])).toEqual([[MEMBERS.pixel, 'PageView']]);
  expect(hitsOf(hits, 'li-script')).toHaveLength(1);
  expect(hitsOf(hits, 'li-hit').map((hit) => hit.url.searchParams.get('pid'))).toEqual([MEMBERS.linkedin]);
  expect(hitsOf(hits, 'other')).toEqual([]);

  // Async, and only once the page has loaded: they never hold up the first paint or the form.
  await expect(page.locator('script[src*="googletagmanager"]')).toHaveJSProperty('async', true);
  const { load, starts } = await scriptTimings(page);
  expect(starts).toHaveLength(4);
  for (const start of starts) expect(start).toBeGreaterThanOrEqual(load);
});

test('the ballot sends its events to GA4; a personal link shows neither its secret nor the pixels', async ({ page, baseURL }) => {
  const hits = await interceptThirdParties(page);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/members-choice/demo');
  await expect.poll(() => hitsOf(hits, 'ga-hit').length).toBeGreaterThan(1);
  const pageView = hitsOf(hits, 'ga-hit').find((hit) => hit.url.searchParams.get('cmd') === 'config')!;
  expect(pageView.url.searchParams.get('dl')).toBe(`${baseURL}/members-choice/personal-link/`);
  expect(hits.some((hit) => hit.url.href.includes('/demo'))).toBe(false);

  await voteOnMembersChoice(page);
  expect(gaEvents(hits)).toEqual(['nomination_picked', 'nomination_picked', 'write_in_added', 'submit_succeeded']);
  const picked = hitsOf(hits, 'ga-hit').find((hit) => hit.url.searchParams.get('en') === 'nomination_picked')!;
  expect(JSON.parse(picked.url.searchParams.get('ep')!)).toEqual({ category: 'Specialists / Dermatology', send_to: MEMBERS.analytics });
  // Not on the personal link's page: the pixels come on the thank-you page, whose address holds no secret.
  await expect.poll(() => hitsOf(hits, 'fb-hit').length).toBe(1);
  await expect.poll(() => hitsOf(hits, 'li-hit').length).toBe(1);
  expect(errors).toEqual([]);
});

test('a submission that fails is sent to GA4 as submit_failed, and the voter still reaches the thank-you page', async ({ page }) => {
  const hits = await interceptThirdParties(page);
  await page.route('**/api/survey?*', (route) => (route.request().method() === 'POST' ? route.abort('connectionreset') : route.fallback()));
  await page.goto('/members-choice/demo');
  await voteOnMembersChoice(page);
  expect(gaEvents(hits).at(-1)).toBe('submit_failed');
  const failed = hitsOf(hits, 'ga-hit').at(-1)!;
  expect(JSON.parse(failed.url.searchParams.get('ep')!)).toMatchObject({ outcome: 'saved' });
});

test('the translate widget starts in the welcome block 2 seconds after the page has loaded, not sooner', async ({ page }) => {
  const hits = await interceptThirdParties(page);
  await page.goto('/members-choice/demo');
  const welcome = page.getByRole('region', { name: 'Welcome, member' });
  await expect(welcome.getByRole('combobox', { name: 'Select Language' })).toBeVisible({ timeout: 8000 });
  const { load, started } = await page.evaluate(() => ({
    load: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventStart,
    started: (window as unknown as { translateStartedAt: number }).translateStartedAt,
  }));
  expect(started - load).toBeGreaterThanOrEqual(2000);
  expect(started - load).toBeLessThan(4500);
  expect(hitsOf(hits, 'translate-script')).toHaveLength(1);
  expect(hitsOf(hits, 'translate-script')[0].url.searchParams.get('cb')).toBeTruthy();
});

test('a page Google Translate has rewritten still takes a whole ballot', async ({ page }) => {
  await interceptThirdParties(page);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`${error.name}: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /NotFoundError|insertBefore|removeChild/.test(message.text())) errors.push(message.text());
  });
  await page.goto('/members-choice/demo');
  await expect(page.getByRole('region', { name: 'Welcome, member' }).getByRole('combobox', { name: 'Select Language' })).toBeVisible({ timeout: 8000 });
  await simulateTranslation(page);
  await expect(page.getByRole('region', { name: 'Welcome, member' }).locator('p font font')).toHaveText(/^Name the colleagues/);
  // React's own subtrees are rewritten too where they are not marked translate="no".
  await expect(page.getByRole('region', { name: 'Your nominations' }).locator('h2 font font')).toHaveText('Your nominations');
  await voteOnMembersChoice(page);
  expect(errors).toEqual([]);
});
