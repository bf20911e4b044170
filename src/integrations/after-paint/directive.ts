import type { ClientDirective } from 'astro';
import { yieldToMain } from './yield-to-main.ts';

/** What a voter does first on a page: each hydrates the islands at once, whatever has loaded. */
const FIRST_TOUCH = ['pointerdown', 'keydown', 'focusin'] as const;
/** The longest a slow image (an ad served from afar) may hold the islands back. */
const AT_MOST_MS = 3000;

/**
 * `client:painted`: hydrates an island once the page has loaded and painted, or at once when the
 * voter touches the page before that. The page's largest paint (the welcome splash) then has the
 * connection to itself: no island's script is fetched, and React does not run, while it loads.
 * Until it hydrates, an island is the server's HTML, and the ballot posts without script.
 * The page's islands then hydrate one at a time, nearest the screen first, each in a task of its
 * own: the main thread is free between them for the voter's taps and the browser's frames.
 */
const painted: ClientDirective = (load, _options, island) => {
  waiting.push({ island, hydrate: async () => (await load())() });
  void pagePainted().then(hydrateInTurn);
};

/** An island that waits for its turn, and what hydrates it (loads its code, then hands it to React). */
interface Waiting {
  island: HTMLElement;
  hydrate: () => Promise<void>;
}

/** The page's `client:painted` islands that have not had their turn yet. */
const waiting: Waiting[] = [];
let turns: Promise<void> | undefined;

/** Hydrates the waiting islands one after the other, yielding to the browser between them; then marks the page hydrated. */
function hydrateInTurn(): Promise<void> {
  turns ??= (async () => {
    for (let next = takeNearest(); next; next = takeNearest()) {
      // One island that fails to hydrate (its code did not come) leaves the others theirs: it stays the server's form.
      await next.hydrate().catch((error: unknown) => console.error(error));
      await yieldToMain();
    }
    turns = undefined;
    markHydrated();
  })();
  return turns;
}

/** Takes the waiting island the voter is in (focus, or the last touch), else the one nearest the screen. */
function takeNearest(): Waiting | undefined {
  if (waiting.length === 0) return undefined;
  const inUse = [document.activeElement, lastTouched].find((element) => element instanceof Node && element !== document.body);
  let best = waiting.findIndex((entry) => inUse instanceof Node && entry.island.contains(inUse));
  if (best < 0) {
    const distances = waiting.map((entry) => distanceFromScreen(entry.island));
    best = distances.indexOf(Math.min(...distances));
  }
  return waiting.splice(best, 1)[0];
}

/** How far, in pixels, an island is above or below the screen; 0 when any of it is on the screen. */
function distanceFromScreen(island: HTMLElement): number {
  // An island's element has no box of its own (display: contents): its content's boxes stand for it.
  const range = document.createRange();
  range.selectNodeContents(island);
  const box = range.getBoundingClientRect();
  if (box.bottom < 0) return -box.bottom;
  return Math.max(0, box.top - innerHeight);
}

/**
 * Sets `data-hydrated` on <html> once every `client:painted` island of the page has hydrated:
 * the one sign, for the end-to-end tests and for styles, that the form is live. React finishes
 * hydrating in tasks of its own (in a transition), so the mark waits until the page is idle.
 */
function markHydrated(): void {
  if (document.querySelector('astro-island[client="painted"][ssr]')) return;
  (window.requestIdleCallback ?? setTimeout)(() => document.documentElement.setAttribute('data-hydrated', ''));
}

/** The element of the voter's first touch (a tap, a key, a focus): its island hydrates first. */
let lastTouched: EventTarget | null = null;

let painting: Promise<void> | undefined;

/**
 * Resolves once the page has loaded and its largest paint (the image it asks for first, the
 * welcome splash) is on the screen, or at the voter's first touch; one wait for all the page's
 * islands. A page that is not shown (a tab in the background) paints no frame, so there it
 * resolves on load; and a load that takes long (an image slow to come) holds it 3 seconds at most.
 */
function pagePainted(): Promise<void> {
  painting ??= new Promise((resolve) => {
    const done = (event?: Event) => {
      if (event) lastTouched = event.target;
      for (const type of FIRST_TOUCH) document.removeEventListener(type, done, true);
      resolve();
    };
    for (const type of FIRST_TOUCH) document.addEventListener(type, done, { capture: true, passive: true });
    setTimeout(() => done(), AT_MOST_MS);
    const afterLoad = async () => {
      const splash = document.querySelector<HTMLImageElement>('img[fetchpriority="high"]');
      if (!document.hidden) await (splash ? onScreen(splash) : nextFrame());
      done();
    };
    if (document.readyState === 'complete') void afterLoad();
    else addEventListener('load', () => void afterLoad(), { once: true });
  });
  return painting;
}

/**
 * Resolves once an image the page has loaded is on the screen: when the browser reports it as
 * the page's largest paint so far (Largest Contentful Paint, which needs no attribute outside
 * HTML), else once it is decoded and two frames have gone by (an image that is not the largest
 * paint, as on a wide screen where the text outgrows the splash, gets no such report, nor does one
 * too plain for the browser to count, lowEntropy). At once
 * for an image that is hidden, out of view or broken: there is no paint to wait for.
 */
async function onScreen(image: HTMLImageElement): Promise<void> {
  const box = image.getBoundingClientRect();
  const shown = image.naturalWidth > 0 && image.checkVisibility?.() !== false && box.bottom > 0 && box.top < innerHeight;
  if (!shown) return;
  const decoded = image
    .decode()
    .catch(() => {})
    .then(nextFrame);
  if (!PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint') || lowEntropy(image, box)) return decoded;
  // Its area on the screen: a paint reported larger than it means it will never be reported itself.
  const area = Math.max(0, Math.min(box.bottom, innerHeight) - Math.max(box.top, 0)) * Math.max(0, Math.min(box.right, innerWidth) - Math.max(box.left, 0));
  let observer: PerformanceObserver | undefined;
  let outgrown: () => void = () => {};
  const larger = new Promise<void>((resolve) => (outgrown = resolve));
  const reported = new Promise<void>((resolve) => {
    observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { element?: Element | null; size?: number }>) {
        if (entry.element === image) resolve();
        else if ((entry.size ?? 0) > area) outgrown();
      }
    });
    observer.observe({ type: 'largest-contentful-paint', buffered: true });
  });
  // The report of a paint can come some frames after the frame that showed it (a busy phone): once
  // the image is decoded and framed, its report is still waited for, unless a larger paint was
  // reported (it will never be), and at most REPORT_WAIT_MS, for browsers that leave an image out.
  const framed = decoded.then(nextFrame).then(() => Promise.race([larger, new Promise<void>((resolve) => setTimeout(resolve, REPORT_WAIT_MS))]));
  await Promise.race([reported, framed]);
  observer?.disconnect();
}

/**
 * Chromium's floor for an image to count as a paint (ExcludeLowEntropyImagesFromLCP): bits of
 * the file per pixel shown. Below it the browser takes an image for a stand-in, not content, and
 * never reports it as the largest paint: so the welcome splash, an SVG of some 500 bytes, on a
 * wide screen.
 */
const MIN_BITS_PER_PIXEL = 0.05;

/** True when the browser will never report the image as the largest paint: too few bits of its file for each pixel it covers. */
function lowEntropy(image: HTMLImageElement, box: DOMRect): boolean {
  const entry = performance.getEntriesByName(image.currentSrc, 'resource')[0] as PerformanceResourceTiming | undefined;
  // The browser gives no size for a file it had kept (its cache), nor for another origin's: the
  // build's (`data-bytes`, the file as it is, compressed by no server) stands in. Without either the report is waited for.
  const bytes = entry?.encodedBodySize || Number(image.dataset.bytes) || 0;
  return bytes > 0 && (bytes * 8) / (box.width * box.height) < MIN_BITS_PER_PIXEL;
}

/** The longest the islands wait, once the splash is decoded and framed, for the browser's report that it is the page's largest paint. */
const REPORT_WAIT_MS = 1000;

/** Resolves in a task after the next frame, so after the frame that shows what has loaded. */
function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
}

export default painted;
