import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test as base, expect, type Page } from '@playwright/test';
import { hydratingNavigation } from './waits.ts';

/** Playwright's `test`, whose `page.goto`, `reload` and `goBack` return once the page's islands have hydrated. */
export const test = base.extend({
  page: async ({ page }, use) => use(hydratingNavigation(page)),
});

export { expect };

/** axe-core's minified build: it parses in half the time of the full source that @axe-core/playwright injects. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Asserts that axe finds no accessibility violation on the page as it is now. Axe is put into
 * each frame once (a fresh page parses its 650 KB in about a third of a second) and runs in the
 * page itself over every rule, detailing only the violations, not every node that passes.
 */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  for (const frame of page.frames()) {
    if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(AXE_SOURCE);
  }
  const summary = await page.evaluate(async () => {
    const { axe } = window as unknown as { axe: typeof import('axe-core') };
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  });
  expect(summary).toEqual([]);
}

/** The personal secrets of the sample surveys' prepopulation files. */
export const SECRETS = {
  evelyn: 'k7Qm2RzX4pWv',
  rajesh: 'Tn8Vb3LsQ9dA',
  member: 'Zp4Wq8Kd2Lx6',
} as const;
