import { AxeBuilder } from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { hydratingNavigation } from './waits.ts';

/** Playwright's `test`, whose `page.goto`, `reload` and `goBack` return once the page's islands have hydrated. */
export const test = base.extend({
  page: async ({ page }, use) => use(hydratingNavigation(page)),
});

export { expect };

/**
 * Asserts that axe finds no accessibility violation on the page as it is now. Axe runs in the
 * page itself (legacy mode: the pages have no frames of another origin to reach) and details only
 * the violations, not every node that passes: the same rules over the same page, in about a
 * quarter of the time of the default run, which opens a second page to merge frames' results.
 */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .setLegacyMode(true)
    .analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(summary).toEqual([]);
}

/** The personal secrets of the sample surveys' prepopulation files. */
export const SECRETS = {
  evelyn: 'k7Qm2RzX4pWv',
  rajesh: 'Tn8Vb3LsQ9dA',
  member: 'Zp4Wq8Kd2Lx6',
} as const;
