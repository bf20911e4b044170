import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import { uuidv7 } from '../../server/ids.ts';
import type { SignalCounts } from './signals.ts';

/** One look for signals, as `results signals` records it. */
export interface SignalRun {
  projectId: string;
  /** When the ballots were counted and read. */
  at: Date;
  actor: string;
  via: 'command line';
  /** The thresholds, by the option that sets each (`window` → 10). */
  thresholds: Record<string, number>;
  /** Every ballot the survey had stored when the run began. */
  ballotsStored: number;
  /** The ballots the detectors read. */
  ballotsRead: number;
  counts: SignalCounts;
}

/** Records a look for signals, with its counts for every kind, in one transaction; its id. */
export async function recordSignalRun(db: Kysely<Database>, run: SignalRun): Promise<string> {
  const id = uuidv7(run.at.getTime());
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('signal_runs')
      .values({
        id,
        project_id: run.projectId,
        ran_at: run.at.toISOString(),
        actor: run.actor,
        via: run.via,
        thresholds: JSON.stringify(run.thresholds),
        ballots_stored: run.ballotsStored,
        ballots_read: run.ballotsRead,
        clusters: run.counts.clusters,
        ballots_named: run.counts.ballotsNamed,
      })
      .execute();
    await trx
      .insertInto('signal_run_kinds')
      .values(run.counts.kinds.map((kind, position) => ({ run_id: id, kind: kind.kind, position, clusters: kind.clusters, ballots_named: kind.ballotsNamed })))
      .execute();
  });
  return id;
}
