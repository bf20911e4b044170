import { AxeBuilder } from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { hydratingNavigation } from './waits.ts';

/** Playwright's `test`, whose `page.goto`, `reload` and `goBack` return once the page's islands have hydrated. */
export const test = base.extend({
  page: async ({ page }, use) => use(hydratingNavigation(page)),
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
