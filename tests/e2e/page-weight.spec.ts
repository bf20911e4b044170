import { expect, test, type Page } from '@playwright/test';

/** The most JavaScript the demo home page may transfer (Brotli as the server sends it, headers included), the reservation sections included. */
const BUDGET = 80 * 1024;
/** The most requests of any kind the demo home page may make as it loads. */
const REQUESTS = 12;

/** Records every request the page makes from now on; `scripts()` waits for the sizes on the wire of the scripts among them. */
function recordRequests(page: Page) {
  const urls: string[] = [];
  const reads: Array<Promise<[string, number] | undefined>> = [];
  page.on('request', (request) => urls.push(request.url()));
  page.on('requestfinished', (request) => {
    if (request.resourceType() !== 'script') return;
    reads.push(
      request.sizes().then(
        (sizes) => [request.url(), sizes.responseHeadersSize + sizes.responseBodySize] as [string, number],
        () => undefined,
      ),
    );
  });
  return {
    urls: () => [...urls],
    scripts: async () => new Map((await Promise.all(reads)).filter((entry) => entry !== undefined)),
  };
}

const total = (sizes: Map<string, number>) => [...sizes.values()].reduce((a, b) => a + b, 0);

test('the demo home page loads in at most 12 requests and 80 KiB of JavaScript, and stays within it once every section has loaded', async ({ page }) => {
  const recorded = recordRequests(page);
  await page.goto('/top-doctors-demo/', { waitUntil: 'networkidle' });
  const first = await recorded.scripts();
  expect(recorded.urls().length, recorded.urls().join('\n')).toBeLessThanOrEqual(REQUESTS);
  // The scripts come compressed: far less on the wire than React's own size.
  expect(total(first), [...first].join('\n')).toBeGreaterThan(40 * 1024);
  expect(total(first), [...first].join('\n')).toBeLessThanOrEqual(BUDGET);

  // The reservation sections load as they come near the screen.
  for (const name of ['Reserve Your Faces Specialty', 'Reserve Your Expert Question']) {
    const tiles = page.getByRole('radiogroup', { name });
    await tiles.scrollIntoViewIfNeeded();
    await expect(page.locator('astro-island[ssr]', { has: tiles })).toHaveCount(0);
  }
  await page.waitForLoadState('networkidle');
  const all = await recorded.scripts();
  expect(all.size).toBeGreaterThan(first.size);
  expect(total(all), [...all].join('\n')).toBeLessThanOrEqual(BUDGET);
});

test('the welcome splash, the page’s largest paint, is asked for from the head with high priority', async ({ page }) => {
  await page.goto('/top-doctors-demo/');
  const splash = page.locator('.welcome img.splash');
  const src = await splash.getAttribute('src');
  expect(src).toBeTruthy();
  await expect(splash).toHaveAttribute('fetchpriority', 'high');
  await expect(page.locator(`head link[rel="preload"][as="image"][fetchpriority="high"][href="${src}"]`)).toHaveCount(1);
});
