// Interaction to Next Paint on the demo ballot page, as a voter on a mid-range phone gets it: once the
// page is live (its islands hydrated: the plain copy has none), a tap on the first nomination input,
// then a tap on Submit. (The time the page blocks as it loads is Lighthouse's total blocking time.) Measured in the page by the `web-vitals` package's attribution
// build, which this bench alone puts into the page (the product's pages never carry it), with the CPU
// slowed 4 times as Lighthouse's mobile run slows it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_PATH, PLAYWRIGHT_CHROMIUM_FLAGS } from '../../support/chromium.ts';

/** Lighthouse's mobile CPU slowdown. */
const CPU_SLOWDOWN = 4;
/** A mid-range phone's screen, as Lighthouse's mobile run emulates it. */
const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };

const webVitalsFile = path.join(path.dirname(fileURLToPath(import.meta.resolve('web-vitals/attribution'))), 'web-vitals.attribution.iife.js');

/**
 * Starts Chromium for the interaction runs; `measure(url, { plain })` loads a page in a fresh
 * context, taps, and resolves with the INP in ms (0 when no interaction took 16 ms, the shortest
 * the browser reports) and where its time went.
 */
export async function interactionMeter() {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: PLAYWRIGHT_CHROMIUM_FLAGS });
  // Each change of the page's INP is kept, with the attribution of its interaction.
  const probe = `${readFileSync(webVitalsFile, 'utf8')}
    webVitals.onINP((metric) => {
      const a = metric.attribution;
      window.__inp = { value: metric.value, target: a.interactionTarget, type: a.interactionType, input: a.inputDelay, processing: a.processingDuration, presentation: a.presentationDelay };
    }, { reportAllChanges: true, durationThreshold: 16 });`;
  return {
    /** @param {string} url @param {{ plain: boolean }} options */
    async measure(url, { plain }) {
      const context = await browser.newContext(PHONE);
      try {
        const page = await context.newPage();
        await page.addInitScript({ content: probe });
        // The plain copy's form posts to the API: answered with No Content, the browser stays on the page.
        if (plain) await page.route('**/api/survey**', (route) => route.fulfill({ status: 204 }));
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
        await page.goto(url, { waitUntil: 'load' });
        if (!plain) await page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'));
        await page.locator('input[role="combobox"]').first().tap();
        await page.getByRole('button', { name: 'Submit' }).tap();
        // The taps' event timings reach observers after the frame that shows them; then the page is
        // made to say it is hidden, which has web-vitals report what it has at once.
        await page.evaluate(
          () =>
            new Promise((resolve) =>
              requestAnimationFrame(() =>
                requestAnimationFrame(() => {
                  Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
                  document.dispatchEvent(new Event('visibilitychange'));
                  resolve(undefined);
                }),
              ),
            ),
        );
        const inp = await page.evaluate(() => /** @type {any} */ (window).__inp);
        return inp ?? { value: 0, target: '(no interaction took 16 ms)', type: '', input: 0, processing: 0, presentation: 0 };
      } finally {
        await context.close();
      }
    },
    close: () => browser.close(),
  };
}
