import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_PATH, LOCAL_HOSTS_ONLY, PLAYWRIGHT_CHROMIUM_FLAGS } from './tests/support/chromium.ts';
import { shareCompiledCode } from './tests/support/server.mjs';

shareCompiledCode();

/** The port the end-to-end tests serve the built site on. */
const port = Number(process.env.E2E_PORT ?? 4322);

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  // A `test.only` left in a file would run that test alone and pass the rest unseen: CI refuses it.
  forbidOnly: !!process.env.CI,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  reporter: [['list']],
  timeout: 30_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // A trace records every action's page (DOM snapshots, screencast) and costs each test about a
    // quarter of its time; CI keeps none of it, so only a run by hand records one, kept on failure.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      // tests/e2e/third-parties.spec.ts intercepts the third parties' scripts; any other host fails at once.
      args: [LOCAL_HOSTS_ONLY, ...PLAYWRIGHT_CHROMIUM_FLAGS],
    },
  },
  projects: [{ name: 'desktop', use: { ...devices['Desktop Chrome'] } }],
  webServer: {
    // The site is built by the test command before this runs (`astro build`, with the pseudo-locale
    // en-XA: PSEUDO_LOCALE=1, which tests/e2e/pseudo-locale.spec.ts needs).
    command: 'node bin/serve.mjs',
    url: `http://127.0.0.1:${port}/top-doctors-demo/`,
    // Every test posts, searches and opens links from 127.0.0.1: the rate limits have tests of their own (tests/api).
    env: { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: 'data/e2e', RATE_LIMIT_MAX: '0', SEARCH_RATE_LIMIT_MAX: '0', LINK_RATE_LIMIT_MAX: '0' },
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
