import { defineConfig, devices } from '@playwright/test';

/** The port the built site is served on for end-to-end tests. */
const PORT = Number(process.env.E2E_PORT ?? 4510);

/**
 * End-to-end tests against the built site (`npx astro build` first), served by the same
 * `bin/serve.mjs` as production, in Debian's Chromium.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 30_000,
  fullyParallel: false,
  workers: 1,
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: {
    command: 'node bin/serve.mjs',
    url: `http://127.0.0.1:${PORT}/top-doctors-demo/`,
    env: { PORT: String(PORT), HOST: '127.0.0.1' },
    reuseExistingServer: false,
    timeout: 30_000,
  },
});
