import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base } from './fixtures.ts';
import { startServer } from '../support/server.mjs';

/** The header that sets the server's clock for one request when its test hooks are on (src/server/test-hooks.ts). */
export const NOW_HEADER = 'x-peervote-now';

/**
 * Starts a server for one test and hands its address to `use`: the built site served by
 * `node bin/serve.mjs` on the embedded defaults (SQLite, local search, local files) with an
 * empty database and the test hooks on. Its port is a free one among the 20 above the suite's
 * own (E2E_PORT, else 4322), so it stays within the range the suite's port was chosen from.
 */
export async function serveFresh(use: (url: string) => Promise<void>): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'peervote-e2e-'));
  const server = await startServer({
    env: { DATA_DIR: dataDir, RATE_LIMIT_MAX: '0', SEARCH_RATE_LIMIT_MAX: '0', LINK_RATE_LIMIT_MAX: '0', PEERVOTE_TEST_HOOKS: '1' },
    ports: { base: Number(process.env.E2E_PORT ?? 4322) + 1, span: 20 },
  });
  try {
    await use(server.url);
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * Tests that each get a server of their own (serveFresh). A Faces tile is held for good, and
 * the demo survey has only a few, so tests that claim tiles or count ballots run here: what they
 * see is what they did, whatever runs beside them and however often the suite has run.
 * `baseURL` points at that server.
 */
export const test = base.extend<{ freshServer: string }>({
  freshServer: async ({}, use) => serveFresh(use),
  baseURL: async ({ freshServer }, use) => use(freshServer),
});

export { expect } from '@playwright/test';
