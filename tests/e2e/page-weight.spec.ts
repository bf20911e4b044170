import { expect, test, type Page } from '@playwright/test';
import { fillVoter, nominate, voter } from './ballot-helpers.ts';
import { islandsHydrated } from './waits.ts';

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

/** Holds back the page's requests for `url` until the returned function is called. */
async function holdBack(page: Page, url: string): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

const total = (sizes: Map<string, number>) => [...sizes.values()].reduce((a, b) => a + b, 0);

/** The demo ballot in each language, and a word of its scripts that only that language's islands hold. */
const BALLOTS = [
  {
    path: '/top-doctors-demo/',
    own: 'First Nomination',
    other: 'Primera nominación',
    reservations: ['Reserve Your Faces Specialty', 'Reserve Your Expert Question'],
  },
  {
    path: '/es/top-doctors-demo/',
    own: 'Primera nominación',
    other: 'First Nomination',
    reservations: ['Reserve su especialidad en Faces', 'Reserve su pregunta de experto'],
  },
];

for (const ballot of BALLOTS) {
  test(`${ballot.path} loads in at most 12 requests and 80 KiB of JavaScript, its language's words only, and stays within it once every section has loaded`, async ({
    page,
  }) => {
    const recorded = recordRequests(page);
    const bodies: Promise<string>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') bodies.push(response.text());
    });
    // Loaded and hydrated: every script the page runs as it loads has come.
    await page.goto(ballot.path);
    await islandsHydrated(page);
    const first = await recorded.scripts();
    expect(recorded.urls().length, recorded.urls().join('\n')).toBeLessThanOrEqual(REQUESTS);
    // The scripts come compressed: far less on the wire than React's own size.
    expect(total(first), [...first].join('\n')).toBeGreaterThan(40 * 1024);
    expect(total(first), [...first].join('\n')).toBeLessThanOrEqual(BUDGET);

    // The reservation sections load as they come near the screen.
    for (const name of ballot.reservations) {
      const tiles = page.getByRole('radiogroup', { name });
      await tiles.scrollIntoViewIfNeeded();
      await expect(page.locator('astro-island[ssr]', { has: tiles })).toHaveCount(0);
    }
    // Each section's scripts came before it hydrated.
    const all = await recorded.scripts();
    expect(all.size).toBeGreaterThan(first.size);
    expect(total(all), [...all].join('\n')).toBeLessThanOrEqual(BUDGET);
    // Each page's islands are built for its language (src/integrations/language-forks.ts): the other's words never come.
    const scripts = (await Promise.all(bodies)).join('\n');
    expect(scripts).toContain(ballot.own);
    expect(scripts).not.toContain(ballot.other);
  });
}

test('the welcome splash, the page’s largest paint, and the stylesheet come in the page itself: its paint waits for no other request', async ({ page }) => {
  const recorded = recordRequests(page);
  await page.goto('/top-doctors-demo/');
  const splash = page.locator('.welcome img.splash');
  expect(await splash.getAttribute('src')).toMatch(/^data:image\/svg\+xml,/);
  await expect(splash).toHaveAttribute('fetchpriority', 'high');
  await expect(page.locator('head link[rel="preload"][as="image"]')).toHaveCount(0);
  await expect(page.locator('link[rel="stylesheet"]')).toHaveCount(0);
  await expect(page.locator('head style')).not.toHaveCount(0);
  expect(recorded.urls().filter((url) => url.includes('welcome-splash') || url.endsWith('.css'))).toEqual([]);
});

test('no script is asked for before the welcome splash, the page’s largest paint on a phone, is on the screen', async ({ page }) => {
  // Lighthouse's phone: on a wide screen the welcome text outgrows the splash.
  await page.setViewportSize({ width: 412, height: 823 });
  await page.goto('/top-doctors-demo/');
  await islandsHydrated(page);
  await expect(page.locator('astro-island[client="painted"][ssr]')).toHaveCount(0);
  const timing = await page.evaluate(async () => {
    const paint = await new Promise<PerformanceEntry & { url: string }>((resolve) =>
      new PerformanceObserver((list) => resolve(list.getEntries().at(-1) as PerformanceEntry & { url: string })).observe({
        type: 'largest-contentful-paint',
        buffered: true,
      }),
    );
    const scripts = performance.getEntriesByType('resource').filter((entry) => new URL(entry.name).pathname.endsWith('.js'));
    return { paint: paint.startTime, url: paint.url, scripts: scripts.length, firstScript: Math.min(...scripts.map((entry) => entry.startTime)) };
  });
  expect(timing.url).toMatch(/^data:image\/svg\+xml,/);
  expect(timing.scripts).toBeGreaterThan(0);
  expect(timing.firstScript).toBeGreaterThan(timing.paint);
});

for (const visit of ['first', 'second'] as const) {
  test(`on a wide screen, where the splash is too plain to be reported as a paint, the islands do not wait for that report (${visit} visit)`, async ({
    page,
  }) => {
    // Every timer the page sets, by its delay: the wait for a report that does not come is one of a second.
    await page.addInitScript(() => {
      const delays: number[] = [];
      const setTimer = window.setTimeout;
      Object.assign(window, { timerDelays: delays });
      window.setTimeout = ((handler: TimerHandler, delay?: number, ...rest: unknown[]) => {
        delays.push(Number(delay ?? 0));
        return setTimer(handler, delay, ...rest);
      }) as typeof window.setTimeout;
    });
    // A second visit finds the page in the browser's cache, where it tells no file size.
    if (visit === 'second') await page.goto('/top-doctors-demo/');
    await page.goto('/top-doctors-demo/');
    await islandsHydrated(page);
    const seen = await page.evaluate(() => ({
      delays: (window as unknown as { timerDelays: number[] }).timerDelays,
      paints: performance.getEntriesByType('largest-contentful-paint').map((entry) => (entry as PerformanceEntry & { url: string }).url),
    }));
    // Chromium leaves an image of under 0.05 bits a pixel out of its largest paints: the splash is never one here.
    expect(seen.paints.filter((url) => url.startsWith('data:image/svg+xml,'))).toEqual([]);
    expect(seen.delays).not.toContain(1000);
  });
}

test('the islands hydrate one at a time, the one nearest the screen first', async ({ page }) => {
  // Each island's hydration is recorded as it is handed to React: its `ssr` attribute goes then.
  await page.addInitScript(() => {
    const order: string[] = [];
    Object.assign(window, { hydrationOrder: order });
    new MutationObserver((records) => {
      for (const { target } of records) {
        const island = target as Element;
        if (island.getAttribute('client') === 'painted' && !island.hasAttribute('ssr')) order.push(island.getAttribute('component-export')!);
      }
    }).observe(document, { subtree: true, attributeFilter: ['ssr'] });
  });
  // Opened at the write-ins, far below the splash: their island is on the screen, the voter's details far above it.
  await page.goto('/top-doctors-demo/#write-ins');
  await islandsHydrated(page);
  const order = await page.evaluate(() => (window as unknown as { hydrationOrder: string[] }).hydrationOrder);
  expect(order).toHaveLength(4);
  expect(order[0]).toBe('WriteIns');
  expect(order.at(-1)).toBe('BallotFields');
});

test('what a voter types and ticks before the page’s scripts have run is kept, shown and sent', async ({ page }) => {
  // The islands' renderer is held back: the voter fills the server's form while nothing has hydrated.
  const release = await holdBack(page, '**/_astro/client.*.js');
  await page.goto('/top-doctors-demo/', { waitUntil: 'load' });
  const who = voter('early');
  await fillVoter(page, who);
  await page.getByRole('radio', { name: 'Yes' }).check();
  await page.getByRole('slider', { name: 'Years in practice' }).fill('3');
  await page.getByRole('checkbox', { name: 'Spanish' }).check();
  await expect(page.locator('astro-island[client="painted"][ssr]')).not.toHaveCount(0);
  // The page says it has hydrated only once every island has (the tests wait for that sign).
  await expect(page.locator('html')).not.toHaveAttribute('data-hydrated');

  release();
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', '');
  await expect(page.locator('astro-island[client="painted"][ssr]')).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'First name' })).toHaveValue(who.first);
  await expect(page.getByRole('textbox', { name: 'Medical practice' })).toHaveValue(who.practice);
  await expect(page.getByRole('slider', { name: 'Years in practice' })).toHaveAttribute('aria-valuetext', '11-20');
  await expect(page.getByRole('checkbox', { name: 'Spanish' })).toBeChecked();
  await nominate(page, 'Cardiology, First Nomination', 'jose alv', 'José Álvarez-Ruiz');
  await page.getByRole('checkbox', { name: 'I Affirm' }).check();
  const posted = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/survey');
  await page.getByRole('button', { name: 'Submit' }).click();
  const body = (await posted).postData() ?? '';
  for (const [name, value] of [
    ['name-first', who.first],
    ['email', who.email],
    ['medical-credential', 'MD'],
    ['board-certified', 'Yes'],
    ['years-in-practice', '11-20'],
    ['languages', 'Spanish'],
  ]) {
    expect(body).toContain(`name="${name}"\r\n\r\n${value}\r\n`);
  }
  await expect(page).toHaveURL(/\/top-doctors-demo\/thankyou$/);
});

test('an image that never comes holds the ballot back 3 seconds at most', async ({ page }) => {
  const release = await holdBack(page, '**/media/metro-health-logo.svg');
  const started = Date.now();
  await page.goto('/top-doctors-demo/', { waitUntil: 'domcontentloaded' });
  expect(await page.evaluate(() => document.readyState)).not.toBe('complete');
  await expect(page.locator('astro-island[client="painted"][ssr]')).toHaveCount(0, { timeout: 8000 });
  expect(Date.now() - started).toBeGreaterThanOrEqual(2500);
  release();
});
