import { gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';

/** The most gzipped JavaScript the demo home page may load, the reservation sections included. */
const BUDGET = 90 * 1024;

/** Records the gzipped size of every script the page loads from now on; `sizes()` waits for the bodies read so far. */
function recordScripts(page: Page): () => Promise<Map<string, number>> {
  const reads: Array<Promise<[string, number] | undefined>> = [];
  page.on('response', (response) => {
    if (!response.url().endsWith('.js')) return;
    reads.push(response.body().then((body) => [response.url(), gzipSync(body).length] as [string, number], () => undefined));
  });
  return async () => new Map((await Promise.all(reads)).filter((entry) => entry !== undefined));
}

const total = (sizes: Map<string, number>) => [...sizes.values()].reduce((a, b) => a + b, 0);

test('the demo home page stays within 90 KB of gzipped JavaScript, on first load and once every section has loaded', async ({ page }) => {
  const scripts = recordScripts(page);
  await page.goto('/top-doctors-demo/', { waitUntil: 'networkidle' });
  const first = await scripts();
  expect(total(first), [...first].join('\n')).toBeLessThanOrEqual(BUDGET);

  // The reservation sections load as they come near the screen.
  for (const name of ['Reserve Your Faces Specialty', 'Reserve Your Expert Question']) {
    const tiles = page.getByRole('radiogroup', { name });
    await tiles.scrollIntoViewIfNeeded();
    await expect(page.locator('astro-island[ssr]', { has: tiles })).toHaveCount(0);
  }
  await page.waitForLoadState('networkidle');
  const all = await scripts();
  expect(all.size).toBeGreaterThan(first.size);
  expect(total(all), [...all].join('\n')).toBeLessThanOrEqual(BUDGET);
});
