import type { Page } from '@playwright/test';

/** One request a page made to a third party, as the stubs saw it. */
export interface Hit {
  kind: 'ga-script' | 'ga-hit' | 'fb-script' | 'fb-hit' | 'li-script' | 'li-hit' | 'translate-script' | 'other';
  url: URL;
}

// Each stub stands in for the vendor's script and does what matters here: reads the page's
// queue as the real one does and sends a beacon per call, which the routes below record.
const GA_STUB = `(function () {
  var id = new URL(document.currentScript.src).searchParams.get('id');
  function send(args) {
    var params = args[2] || {};
    navigator.sendBeacon('https://region1.google-analytics.com/g/collect?' + new URLSearchParams({
      tid: id, cmd: String(args[0]), en: String(args[1]), dl: params.page_location || '', ep: JSON.stringify(params)
    }));
  }
  var queue = window.dataLayer;
  Array.prototype.forEach.call(queue, send);
  queue.push = function (args) { send(args); return Array.prototype.push.call(queue, args); };
})();`;

const FB_STUB = `(function () {
  var fbq = window.fbq;
  fbq.callMethod = function (command, id) {
    if (command === 'init') fbq.pixelId = id;
    else navigator.sendBeacon('https://www.facebook.com/tr?' + new URLSearchParams({ id: fbq.pixelId, ev: String(id) }));
  };
  fbq.queue.splice(0).forEach(function (args) { fbq.callMethod.apply(null, args); });
})();`;

const LI_STUB = `navigator.sendBeacon('https://px.ads.linkedin.com/collect?' + new URLSearchParams({ pid: window._linkedin_partner_id, fmt: 'js' }));`;

const TRANSLATE_STUB = `(function () {
  var callback = new URL(document.currentScript.src).searchParams.get('cb');
  window.google = window.google || {};
  window.google.translate = {
    TranslateElement: function (options, id) {
      window.translateStartedAt = performance.now();
      var select = document.createElement('select');
      select.className = 'goog-te-combo';
      select.setAttribute('aria-label', 'Select Language');
      document.getElementById(id).appendChild(select);
    }
  };
  window[callback]();
})();`;

const KINDS: Array<[RegExp, Hit['kind'], string | undefined]> = [
  [/^https:\/\/www\.googletagmanager\.com\/gtag\/js/, 'ga-script', GA_STUB],
  [/^https:\/\/[\w.-]*google-analytics\.com\//, 'ga-hit', undefined],
  [/^https:\/\/connect\.facebook\.net\/en_US\/fbevents\.js/, 'fb-script', FB_STUB],
  [/^https:\/\/www\.facebook\.com\/tr/, 'fb-hit', undefined],
  [/^https:\/\/snap\.licdn\.com\/li\.lms-analytics\/insight\.min\.js/, 'li-script', LI_STUB],
  [/^https:\/\/px\.ads\.linkedin\.com\//, 'li-hit', undefined],
  [/^https:\/\/translate\.google\.com\/translate_a\/element\.js/, 'translate-script', TRANSLATE_STUB],
];

/**
 * Answers every request that leaves this machine: a vendor script with its recording stub,
 * a beacon with 204, anything else with an abort. Returns the hits, in order.
 */
export async function interceptThirdParties(page: Page): Promise<Hit[]> {
  const hits: Hit[] = [];
  await page.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, async (route) => {
    const url = new URL(route.request().url());
    const [, kind, stub] = KINDS.find(([pattern]) => pattern.test(url.href)) ?? [undefined, 'other' as const, undefined];
    hits.push({ kind, url });
    if (kind === 'other') return route.abort();
    if (stub !== undefined) return route.fulfill({ status: 200, contentType: 'text/javascript', body: stub });
    return route.fulfill({ status: 204 });
  });
  return hits;
}

/** The hits of one kind. */
export const hitsOf = (hits: Hit[], kind: Hit['kind']) => hits.filter((hit) => hit.kind === kind);

/** The GA4 events recorded so far, by name. */
export const gaEvents = (hits: Hit[]) =>
  hitsOf(hits, 'ga-hit')
    .filter((hit) => hit.url.searchParams.get('cmd') === 'event')
    .map((hit) => hit.url.searchParams.get('en'));

/**
 * Rewrites the page's text as Google Translate does: each text node outside `translate="no"`
 * (and `.notranslate`) is replaced by `<font><font>its translation</font></font>`, now and whenever
 * React adds text later. React then finds its text nodes gone from where it left them.
 */
export async function simulateTranslation(page: Page): Promise<void> {
  await page.evaluate(() => {
    const skip = (node: Node) => Boolean(node.parentElement?.closest('[translate="no"], .notranslate, script, style, font, select, option, textarea'));
    const translate = (root: Node) => {
      const texts: Text[] = [];
      const consider = (node: Node) => node instanceof Text && node.data.trim() && !skip(node) && texts.push(node);
      consider(root);
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) consider(node);
      for (const text of texts) {
        if (!text.parentNode) continue;
        const outer = document.createElement('font');
        const inner = document.createElement('font');
        outer.style.verticalAlign = 'inherit';
        inner.style.verticalAlign = 'inherit';
        // The same words: what matters here is the nodes, and a voter still finds 'Submit'.
        inner.textContent = text.data;
        outer.append(inner);
        text.replaceWith(outer);
      }
    };
    translate(document.body);
    new MutationObserver((records) => {
      const added = records.flatMap((record) => [...record.addedNodes]);
      setTimeout(() => added.forEach((node) => node.isConnected && translate(node)), 0);
    }).observe(document.body, { childList: true, subtree: true });
    document.documentElement.classList.add('translated-ltr');
  });
}
