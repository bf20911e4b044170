import { expect, test } from './fixtures.ts';

// Chromium heeds only the last --disable-features on its command line: the project's own
// (tests/support/chromium.ts) must repeat every feature Playwright turns off before it.
test('Chromium runs with every feature Playwright turns off still off, and no address-bar popup pages', async ({ browser, page }) => {
  await page.goto('chrome://version');
  const commandLine = (await page.locator('#command_line').textContent()) ?? '';
  const lists = [...commandLine.matchAll(/--disable-features=(\S*)/g)].map(([, features]) => features.split(','));
  expect(lists.length, 'Playwright’s --disable-features and the project’s own').toBeGreaterThan(1);
  const heeded = lists.at(-1) ?? [];
  for (const earlier of lists.slice(0, -1)) expect(earlier.filter((feature) => !heeded.includes(feature))).toEqual([]);

  const session = await browser.newBrowserCDPSession();
  const { targetInfos } = await session.send('Target.getTargets', { filter: [{}] });
  expect(targetInfos.filter((target) => target.url.startsWith('chrome://omnibox-popup'))).toEqual([]);
});
