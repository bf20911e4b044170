import { GA4 } from '../survey/config/third-parties.ts';
import { listenBallotEvents } from './ballot-events.ts';
import { loadScript } from './load-script.ts';

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: unknown[]) => void;
  }
}

/**
 * Starts Google Analytics 4 (gtag.js): a page view, then the ballot's events. On a personal
 * link the page is reported as `/{slug}/personal-link/`, so the secret never leaves the page.
 */
export function startAnalytics(id: string, pageLocation: string): void {
  window.dataLayer = window.dataLayer ?? [];
  // gtag.js reads the `arguments` objects the snippet queues, not arrays.
  window.gtag = function gtag() {
    // biome-ignore lint/complexity/noArguments: see above: gtag.js wants the arguments object itself.
    window.dataLayer!.push(arguments);
  };
  window.gtag('js', new Date());
  window.gtag('config', id, { page_location: pageLocation });
  loadScript(GA4.script(id));
  listenBallotEvents(({ name, params }) => window.gtag!('event', name, { ...params, send_to: id }));
}
