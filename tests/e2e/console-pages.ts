import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { expect, expectNoAxeViolations } from './fixtures.ts';
import { virtualAuthenticator } from './virtual-authenticator.ts';

/** What a console spec's server gives these helpers: its origin and `npm run results` against its database. */
interface ConsoleServer {
  origin: string;
  results(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** Makes the operator's first passkey from a printed link, which signs them in. */
export async function enrol(page: Page, server: ConsoleServer, email: string): Promise<void> {
  await virtualAuthenticator(page);
  const link = await server.results('operators', 'link', email, '--base-url', server.origin);
  expect(link.code, link.stderr).toBe(0);
  await page.goto(link.stdout.trim());
  await page.getByRole('button', { name: 'Create a passkey' }).click();
  await expect(page).toHaveURL(`${server.origin}/console/`);
}

/**
 * Looks at the page at a width, axe clean, with nothing wider than the screen; a full-page
 * screenshot kept with the test's results, and in `copyTo` when a folder is named (the guides'
 * screenshots).
 */
export async function atWidth(page: Page, info: TestInfo, width: number, name: string, copyTo?: string): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  await expectNoAxeViolations(page);
  const file = info.outputPath(`${name}-${width}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await info.attach(`${name} at ${width} px`, { path: file, contentType: 'image/png' });
  if (copyTo) {
    await mkdir(copyTo, { recursive: true });
    await copyFile(file, path.join(copyTo, `${name}-${width}.png`));
  }
}
