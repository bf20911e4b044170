import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../../../src/server/db/schema.ts';
import { SEND_RUN_SILENCE_MS, endSendRun, renewSendRun, takeSendRun } from '../../../src/results/delivery/delivery.repository.ts';
import { scratchDatabase } from '../../support/results-db.ts';

// The hold one `send` run takes on a survey's sending (tests/api/mail.test.ts runs two real
// processes against each other, on both databases): here, what each step says and leaves.

let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let db: Kysely<Database>;
beforeEach(async () => {
  scratch = await scratchDatabase();
  db = scratch.db;
});
afterEach(() => scratch.close());

const runner = (runId: string, host = 'here', pid = process.pid) => ({ runId, host, pid, campaign: 'invitation' });
const t0 = new Date('2027-03-01T10:00:00Z');
const later = (ms: number) => new Date(t0.getTime() + ms);

describe('the hold on a survey’s sending', () => {
  test('one run holds it; another is told who holds it; a run of another survey is not held up', async () => {
    expect(await takeSendRun(db, 'p', runner('a'), t0)).toBeUndefined();
    const holder = await takeSendRun(db, 'p', runner('b'), later(1000));
    expect(holder).toMatchObject({ run_id: 'a', host: 'here', pid: process.pid, campaign: 'invitation', started_at: t0.toISOString() });
    expect(await takeSendRun(db, 'q', runner('c'), later(1000))).toBeUndefined();
  });

  test('a holder that renews keeps it past a minute; one silent for over a minute is taken, and then learns it lost it', async () => {
    await takeSendRun(db, 'p', runner('a', 'elsewhere', 1), t0);
    expect(await renewSendRun(db, 'p', 'a', later(50_000))).toBe(true);
    expect((await takeSendRun(db, 'p', runner('b'), later(50_000 + SEND_RUN_SILENCE_MS)))?.run_id).toBe('a');
    expect(await takeSendRun(db, 'p', runner('b'), later(50_001 + SEND_RUN_SILENCE_MS))).toBeUndefined();
    expect(await renewSendRun(db, 'p', 'a', later(60_000 + SEND_RUN_SILENCE_MS))).toBe(false);
  });

  test('a holder on this machine whose process is gone is let go at once; one whose process lives is not', async () => {
    // Process ids are at most 2^22 on Linux: this one is no process.
    await takeSendRun(db, 'p', runner('dead', 'here', 2 ** 22 + 7), t0);
    expect(await takeSendRun(db, 'p', runner('b'), later(1000))).toBeUndefined();
    await takeSendRun(db, 'q', runner('alive', 'here', process.ppid), t0);
    expect((await takeSendRun(db, 'q', runner('c'), later(1000)))?.run_id).toBe('alive');
  });

  test('ending lets go only what the run still holds', async () => {
    await takeSendRun(db, 'p', runner('a', 'elsewhere', 1), t0);
    await takeSendRun(db, 'p', runner('b'), later(SEND_RUN_SILENCE_MS + 1));
    await endSendRun(db, 'p', 'a');
    expect((await takeSendRun(db, 'p', runner('c'), later(SEND_RUN_SILENCE_MS + 2)))?.run_id).toBe('b');
    await endSendRun(db, 'p', 'b');
    expect(await takeSendRun(db, 'p', runner('c'), later(SEND_RUN_SILENCE_MS + 3))).toBeUndefined();
  });
});
