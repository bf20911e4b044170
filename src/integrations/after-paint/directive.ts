import type { ClientDirective } from 'astro';

/** What a voter does first on a page: each hydrates the islands at once, whatever has loaded. */
const FIRST_TOUCH = ['pointerdown', 'keydown', 'focusin'] as const;
/** The longest a slow image (an ad served from afar) may hold the islands back. */
const AT_MOST_MS = 3000;

/**
 * `client:painted`: hydrates an island once the page has loaded and painted, or at once when the
 * voter touches the page before that. The page's largest paint (the welcome splash) then has the
 * connection to itself: no island's script is fetched, and React does not run, while it loads.
 * Until it hydrates, an island is the server's HTML, and the ballot posts without script.
 */
const painted: ClientDirective = (load) =>
  void pagePainted().then(async () => {
    await (await load())();
    markHydrated();
  });

/**
 * Sets `data-hydrated` on <html> once every `client:painted` island of the page has hydrated:
 * the one sign, for the end-to-end tests and for styles, that the form is live. React finishes
 * hydrating in tasks of its own (in a transition), so the mark waits until the page is idle.
 */
function markHydrated(): void {
  if (document.querySelector('astro-island[client="painted"][ssr]')) return;
  (window.requestIdleCallback ?? setTimeout)(() => document.documentElement.setAttribute('data-hydrated', ''));
}

let painting: Promise<void> | undefined;

/**
 * Resolves once the page has loaded and its largest paint (the image it asks for first, the
 * welcome splash) is on the screen, or at the voter's first touch; one wait for all the page's
 * islands. A page that is not shown (a tab in the background) paints no frame, so there it
 * resolves on load; and a load that takes long (an image slow to come) holds it 3 seconds at most.
 */
function pagePainted(): Promise<void> {
  painting ??= new Promise((resolve) => {
    const done = () => {
      for (const type of FIRST_TOUCH) document.removeEventListener(type, done, true);
      resolve();
    };
    for (const type of FIRST_TOUCH) document.addEventListener(type, done, { capture: true, passive: true });
    setTimeout(done, AT_MOST_MS);
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
 * paint, as on a wide screen where the text outgrows the splash, gets no such report). At once
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
  if (!PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint')) return decoded;
  let observer: PerformanceObserver | undefined;
  const reported = new Promise<void>((resolve) => {
    observer = new PerformanceObserver((list) => {
      if (list.getEntries().some((entry) => (entry as PerformanceEntry & { element?: Element | null }).element === image)) resolve();
    });
    observer.observe({ type: 'largest-contentful-paint', buffered: true });
  });
  await Promise.race([reported, decoded.then(nextFrame)]);
  observer?.disconnect();
}

/** Resolves in a task after the next frame, so after the frame that shows what has loaded. */
function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
}

export default painted;
