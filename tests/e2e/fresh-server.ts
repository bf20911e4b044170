import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base } from '@playwright/test';

/** The header that sets the server's clock for one request when its test hooks are on (src/server/test-hooks.ts). */
export const NOW_HEADER = 'x-peervote-now';

/**
 * Tests that each get a server of their own: the built site served by `node bin/serve.mjs`
 * on the embedded defaults (SQLite, local search, local files) with an empty database and
 * the test hooks on. A Faces tile is held for good, and the demo survey has only a few, so
 * tests that claim tiles or count ballots run here: what they see is what they did, whatever
 * runs beside them and however often the suite has run. `baseURL` points at that server.
 *
 * The port is the suite's (E2E_PORT, else 4322) plus one plus the worker's parallel index,
 * so it stays within the range the suite's own port was chosen from.
 */
export const test = base.extend<{ freshServer: string }>({
  freshServer: async ({}, use, testInfo) => {
    const port = Number(process.env.E2E_PORT ?? 4322) + 1 + testInfo.parallelIndex;
    const dataDir = await mkdtemp(path.join(tmpdir(), 'peervote-e2e-'));
    const server = spawn(process.execPath, ['bin/serve.mjs'], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, RATE_LIMIT_MAX: '0', PEERVOTE_TEST_HOOKS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the fresh server did not start:\n${output}`)), 30_000);
      const read = (chunk: Buffer) => {
        output += chunk;
        if (output.includes('Peervote is running')) {
          clearTimeout(timer);
          resolve();
        }
      };
      server.stdout.on('data', read);
      server.stderr.on('data', read);
      server.on('exit', (code) => reject(new Error(`the fresh server stopped (${code}):\n${output}`)));
    });
    await use(`http://127.0.0.1:${port}`);
    const stopped = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    const late = setTimeout(() => server.kill('SIGKILL'), 5_000);
    await stopped;
    clearTimeout(late);
    await rm(dataDir, { recursive: true, force: true });
  },
  baseURL: async ({ freshServer }, use) => use(freshServer),
});

export { expect } from '@playwright/test';
