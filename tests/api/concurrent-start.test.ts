import { describe, expect, test } from 'vitest';
import { startServer } from '../support/server.mjs';
import { freshDatabase } from './helpers.ts';

// Two API processes started at once on a new database (a deployment that starts two behind a
// load balancer, or a restart that overlaps the old process) both bring it up to date: the
// migrations take a lock, so that one runs them and the other finds them done. Without it the
// second ran the first migration again and stopped ("table ballots already exists").

/**
 * Rounds of two servers on a new database each: without the lock the race was lost in about half
 * the rounds on SQLite (five servers of ten rounds), so four rounds find it fifteen times in sixteen
 * while costing the run half of what eight did.
 */
const ROUNDS = 4;

describe('two servers started at once on a new database', () => {
  test(`both come up and answer /api/health, ${ROUNDS} rounds`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const fresh = await freshDatabase();
      const started = await Promise.allSettled([startServer({ env: fresh.env }), startServer({ env: fresh.env })]);
      try {
        const failed = started.flatMap((result) => (result.status === 'rejected' ? [`round ${round}: ${(result.reason as Error).message}`] : []));
        expect(failed).toEqual([]);
        for (const result of started) {
          if (result.status !== 'fulfilled') continue;
          const health = await fetch(`${result.value.url}/api/health`);
          expect(health.status, `round ${round}: ${await health.text()}`).toBe(200);
        }
      } finally {
        for (const result of started) if (result.status === 'fulfilled') await result.value.stop();
        await fresh.remove();
      }
    }
  }, 180_000);
});
