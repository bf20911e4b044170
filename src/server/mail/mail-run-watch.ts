import { database } from '../db/database.ts';
import { leaseLive, runningRuns, takeRun } from './mail-runs.repository.ts';
import { THIS_PROCESS } from './claimant.ts';

// Every process of the API looks for console send runs that no live process drives (one that
// died mid-run, or let a run go because another held its survey for a moment) and takes each, at
// its start and every few seconds: the claim is taken in one statement from the driver it was
// seen with, so that one process, not each, resumes a run.

/** How often a process looks for runs to take. */
const WATCH_MS = 10_000;

let started = false;

/** Takes and drives the runs that no live process drives; the driver (src/server/console/mail-runs.ts) is loaded only when there is one. */
async function look(): Promise<void> {
  const { db } = await database();
  const now = new Date();
  for (const run of await runningRuns(db)) {
    // This process's own runs are live while it drives them (it renews their claims); one whose claim it let run out is taken again.
    if (leaseLive(run, now)) continue;
    if (!(await takeRun(db, run, THIS_PROCESS, now))) continue;
    const { driveRun } = await import('../console/mail-runs.ts');
    void driveRun({ ...run, lease_owner: THIS_PROCESS.owner });
  }
}

/** Starts looking, once a process: now, then every WATCH_MS. */
export function watchMailRuns(): void {
  if (started) return;
  started = true;
  const tick = () => look().catch((error) => console.warn(`send runs: ${(error as Error).message.split('\n')[0]}`));
  void tick();
  setInterval(tick, WATCH_MS).unref();
}
