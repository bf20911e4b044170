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
 * A page that is not shown (a tab in the background) paints no frame, so there it hydrates on load;
 * and a load that takes long (an image slow to come) holds the islands back 3 seconds at most.
 */
const painted: ClientDirective = (load) => {
  let started = false;
  const hydrate = async () => {
    if (started) return;
    started = true;
    for (const type of FIRST_TOUCH) document.removeEventListener(type, hydrate, true);
    await (await load())();
  };
  for (const type of FIRST_TOUCH) document.addEventListener(type, hydrate, { capture: true, passive: true });
  setTimeout(hydrate, AT_MOST_MS);
  // The page's largest paint is the image it asks for first (the welcome splash).
  const afterPaint = async () => {
    if (document.hidden) return hydrate();
    const splash = document.querySelector<HTMLImageElement>('img[fetchpriority="high"]');
    await (splash ? onScreen(splash) : nextFrame());
    void hydrate();
  };
  if (document.readyState === 'complete') void afterPaint();
  else addEventListener('load', () => void afterPaint(), { once: true });
};

/**
 * Resolves once an image the page has loaded is on the screen: when the browser reports its paint
 * (Element Timing, for an image marked `elementtiming`), else once it is decoded and a frame has
 * gone by. At once for an image that is hidden, out of view or broken: there is no paint to wait for.
 */
async function onScreen(image: HTMLImageElement): Promise<void> {
  const box = image.getBoundingClientRect();
  const shown = image.naturalWidth > 0 && image.checkVisibility?.() !== false && box.bottom > 0 && box.top < innerHeight;
  if (!shown) return;
  if (image.hasAttribute('elementtiming') && PerformanceObserver.supportedEntryTypes?.includes('element')) {
    return new Promise((resolve) => {
      const observer = new PerformanceObserver((list) => {
        if (!list.getEntries().some((entry) => (entry as PerformanceEntry & { element?: Element | null }).element === image)) return;
        observer.disconnect();
        resolve();
      });
      observer.observe({ type: 'element', buffered: true });
    });
  }
  await image.decode().catch(() => {});
  await nextFrame();
}

/** Resolves in a task after the next frame, so after the frame that shows what has loaded. */
function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
}

export default painted;
