/** Resolves once the page has loaded and the browser is idle: third parties never compete with the first paint or the form. */
export async function whenInteractive(): Promise<void> {
  if (document.readyState !== 'complete') await new Promise<void>((resolve) => addEventListener('load', () => resolve(), { once: true }));
  await new Promise<void>((resolve) => {
    if ('requestIdleCallback' in window) requestIdleCallback(() => resolve(), { timeout: 1000 });
    else setTimeout(resolve, 1);
  });
}

/** When the page's load event fired, on the page's clock (performance.now()). */
export function loadTime(): number {
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  return navigation?.loadEventStart || performance.now();
}

/** Adds a third party's script to the page, async: it never blocks parsing or rendering. */
export function loadScript(src: string): HTMLScriptElement {
  const script = document.createElement('script');
  script.async = true;
  script.src = src;
  document.head.append(script);
  return script;
}
