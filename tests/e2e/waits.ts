import type { Page } from '@playwright/test';

// The waits of the end-to-end tests, each for an event the page gives: never for the network to
// fall quiet for a while, never for a time. A check that something does NOT happen waits for a
// later event that proves its moment has passed (laterRequest, the page's clock run ahead).

/**
 * Waits until every island that hydrates as the page loads (`client:painted`) has hydrated, as the
 * page says with `data-hydrated` on <html> (src/integrations/after-paint/directive.ts); at once on
 * a page without such islands. Their scripts have all loaded by then.
 */
export async function islandsHydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated') || !document.querySelector('astro-island[client="painted"]'));
}

/**
 * Makes `goto`, `reload` and `goBack` of this page return once its islands have hydrated: a
 * voter's first tap then lands on a live form, as it does for a person who reads before they tap.
 */
export function hydratingNavigation(page: Page): Page {
  const { goto, reload, goBack } = { goto: page.goto.bind(page), reload: page.reload.bind(page), goBack: page.goBack.bind(page) };
  const hydrated = async <T>(navigation: Promise<T>): Promise<T> => {
    const response = await navigation;
    await islandsHydrated(page);
    return response;
  };
  page.goto = (url, options) => hydrated(goto(url, options));
  page.reload = (options) => hydrated(reload(options));
  page.goBack = (options) => hydrated(goBack(options));
  return page;
}

/**
 * Sends a request from the page and waits until Playwright has seen it go: every request the page
 * asked for before it has been seen by then. The moment a test that checks that nothing was sent
 * may look; its address (`/api/health?after=…`) is easy to leave out of what a test records.
 */
export async function laterRequest(page: Page): Promise<void> {
  const mark = `/api/health?after=${Math.random().toString(36).slice(2)}`;
  const seen = page.waitForRequest((request) => request.url().endsWith(mark));
  await page.evaluate((url) => void fetch(url, { cache: 'no-store', credentials: 'omit' }).catch(() => {}), mark);
  await seen;
}

/** Runs the page's own timers `ms` ahead at once on Playwright's clock (installed by the test), then waits for a later request: whatever they were to send has gone by then. */
export async function afterAppTimers(page: Page, ms: number): Promise<void> {
  await page.clock.runFor(ms);
  await laterRequest(page);
}

/** Waits until the page has drawn a frame and run a task after it: what the last change shows is on the screen. */
export async function nextFrame(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve();
          channel.port2.postMessage(null);
        }),
      ),
  );
}

/**
 * Waits until what is in view has loaded: every image on the screen, and every island that
 * hydrates as it comes near (`client:visible`, 400 px ahead); then until the page has drawn it
 * and told its performance observers (two frames).
 */
export async function inViewLoaded(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    // An island's element has no box of its own (display: contents): its first child's stands for it.
    const near = (element: Element, margin: number) => {
      const box = (element.localName === 'astro-island' ? (element.firstElementChild ?? element) : element).getBoundingClientRect();
      return box.bottom >= -margin && box.top <= innerHeight + margin;
    };
    const images = [...document.images].filter((image) => image.checkVisibility() && near(image, 0));
    const islands = [...document.querySelectorAll('astro-island[ssr]')].filter((island) => near(island, 400));
    return images.every((image) => image.complete) && islands.length === 0;
  });
  await nextFrame(page);
  await nextFrame(page);
}
