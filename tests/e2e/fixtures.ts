import { AxeBuilder } from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';

/**
 * Waits until every island that hydrates as the page loads (`client:painted`) has hydrated: a voter's first tap lands on
 * a live form, as it does for a person who reads before they tap.
 */
async function islandsHydrated(page: Page): Promise<void> {
  // Astro drops `ssr` when it starts hydrating; React has finished once its fiber is on the island's element.
  await page.waitForFunction(() =>
    [...document.querySelectorAll('astro-island[client="painted"]')].every(
      (island) =>
        !island.hasAttribute('ssr') && (!island.firstElementChild || Object.keys(island.firstElementChild).some((key) => key.startsWith('__reactFiber'))),
    ),
  );
}

/** Playwright's `test`, whose `page.goto` returns once the page's islands have hydrated. */
export const test = base.extend({
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      await islandsHydrated(page);
      return response;
    };
    await use(page);
  },
});

export { expect };

/** Asserts that axe finds no accessibility violation on the page as it is now. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(summary).toEqual([]);
}

/** The personal secrets of the sample surveys' prepopulation files. */
export const SECRETS = {
  evelyn: 'k7Qm2RzX4pWv',
  rajesh: 'Tn8Vb3LsQ9dA',
  member: 'Zp4Wq8Kd2Lx6',
} as const;
