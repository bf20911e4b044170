import { expect, expectNoAxeViolations, test, SECRETS } from './fixtures.ts';
import { interceptThirdParties } from './third-party-stubs.ts';
import { inViewLoaded, laterRequest } from './waits.ts';

// Every state a visitor can land on: no console error, nothing axe objects to, and no dead end.
const STATES: Array<[string, string, string]> = [
  ['public link', '/top-doctors-demo/', 'Rules for Submission'],
  ['personal link', `/top-doctors-demo/${SECRETS.evelyn}`, 'Rules for Submission'],
  ['demo personal link', '/top-doctors-demo/demo', 'Rules for Submission'],
  ['invalid link', '/members-choice/', 'Invalid link!'],
  ['expired', '/best-dentists-2024/', 'Survey form has expired!'],
  ['thank-you', '/top-doctors-demo/thankyou', 'Thank you'],
  ['stats', '/top-doctors-demo/stats', 'Participation'],
  ['workplace stats', '/top-doctors-demo/workplace-stats', 'Participation by workplace'],
  ['unknown address', '/no-such-survey/', 'Page not found'],
];

for (const [state, path, heading] of STATES) {
  test(`the ${state} page logs no console error and passes axe`, async ({ page }) => {
    await interceptThirdParties(page);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      // The 404 page's own status is the answer it means to give.
      if (message.type() === 'error' && message.location().url !== page.url()) errors.push(message.text());
    });
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
    // The page has settled what it shows (a personal link checked, the figures loaded), and a request later
    // every request it made by itself has gone: what went wrong has been logged.
    await expect(page.locator('#survey-root[data-link-state="checking"]')).toHaveCount(0);
    await expect(page.locator('[data-part="loading"]:visible')).toHaveCount(0);
    await laterRequest(page);
    expect(errors).toEqual([]);
    await expectNoAxeViolations(page);
  });
}

test('the expired page says when the survey closed', async ({ page }) => {
  await page.goto('/best-dentists-2024/');
  await expect(page.getByRole('heading', { name: 'Survey form has expired!' })).toBeVisible();
  await expect(page.getByText('This survey closed on 31 January 2025.')).toBeVisible();
  await expect(page.getByRole('form')).toBeHidden();
});

test('an invalid link keeps SPEC’s words and offers nothing that looks like a form', async ({ page }) => {
  await page.goto('/members-choice/');
  await expect(page.getByText('Sorry, this link is invalid! Please use your custom link to access your survey form.')).toBeVisible();
  for (const role of ['textbox', 'combobox', 'checkbox', 'radio', 'button'] as const) await expect(page.getByRole(role)).toHaveCount(0);
});

test('an unknown address answers 404 in the site’s shell, with a way to the default survey', async ({ page }) => {
  const response = await page.goto('/no-such-survey/');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('contentinfo')).toContainText('Powered by');
  await page.getByRole('link', { name: 'Go to Top Doctors 2027' }).click();
  await expect(page).toHaveURL(/\/top-doctors-demo\/$/);
});

test('the ballot page does not shift as it loads (CLS under 0.01)', async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { cls: number }).cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
        if (!entry.hadRecentInput) (window as unknown as { cls: number }).cls += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto('/top-doctors-demo/');
  // Scroll down past the ads and back, as a voter reading the ballot does; lazy images and the
  // reservation sections load on the way, and each stop waits until what is in view has.
  for (const y of [800, 1600, 2400, 3200, 0]) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await inViewLoaded(page);
  }
  const cls = await page.evaluate(() => (window as unknown as { cls: number }).cls);
  expect(cls).toBeLessThan(0.01);
  for (const image of await page.locator('main img').all()) {
    await expect(image).toHaveAttribute('width', /^\d+$/);
    await expect(image).toHaveAttribute('height', /^\d+$/);
  }
});

test('an optional file can be removed, back to "No file uploaded"', async ({ page }) => {
  await page.goto('/top-doctors-demo/');
  const chooser = page.getByLabel('Headshot for the issue (optional)');
  await chooser.setInputFiles({ name: 'portrait.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByText('portrait.png')).toBeVisible();
  await page.getByRole('button', { name: 'Remove file portrait.png' }).click();
  await expect(page.getByText('No file uploaded')).toBeVisible();
  await expect(page.getByRole('button', { name: /Remove file/ })).toHaveCount(0);
  expect(await chooser.evaluate((input: HTMLInputElement) => input.files?.length)).toBe(0);
  await expect(chooser).toBeFocused();
});

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082',
  'hex',
);
