import type { ClientDirective } from 'astro';

/** What a voter does first on a page: each hydrates the islands at once, whatever has loaded. */
const FIRST_TOUCH = ['pointerdown', 'keydown', 'focusin'] as const;

/**
 * `client:painted`: hydrates an island once the page has loaded and painted, or at once when the
 * voter touches the page before that. The page's largest paint (the welcome splash) then has the
 * connection to itself: no island's script is fetched, and React does not run, while it loads.
 * Until it hydrates, an island is the server's HTML, and the ballot posts without script.
 * A page that is not shown (a tab in the background) paints no frame, so there it hydrates on load.
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
  // The page's largest paint is the image it asks for first (the welcome splash): once it is
  // decoded, a task after the next frame comes after the frame that shows it.
  const afterPaint = async () => {
    if (document.hidden) return hydrate();
    await document
      .querySelector<HTMLImageElement>('img[fetchpriority="high"]')
      ?.decode()
      .catch(() => {});
    requestAnimationFrame(() => setTimeout(hydrate));
  };
  if (document.readyState === 'complete') void afterPaint();
  else addEventListener('load', () => void afterPaint(), { once: true });
};

export default painted;
