import { defineConfig, devices } from '@playwright/test';

/** The port the end-to-end tests serve the built site on. */
const port = Number(process.env.E2E_PORT ?? 4322);

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  // A `test.only` left in a file would run that test alone and pass the rest unseen: CI refuses it.
  forbidOnly: !!process.env.CI,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  timeout: 30_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // No host but this machine resolves: a third-party script a test does not intercept
      // (tests/e2e/third-parties.spec.ts intercepts them) fails at once instead of leaving it.
      args: [
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'desktop', use: { ...devices['Desktop Chrome'] } }],
  webServer: {
    // The site is built by the test command before this runs (`astro build`).
    command: 'node bin/serve.mjs',
    url: `http://127.0.0.1:${port}/top-doctors-demo/`,
    // Every test posts, searches and opens links from 127.0.0.1: the rate limits have tests of their own (tests/api).
    env: { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: 'data/e2e', RATE_LIMIT_MAX: '0', SEARCH_RATE_LIMIT_MAX: '0', LINK_RATE_LIMIT_MAX: '0' },
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
