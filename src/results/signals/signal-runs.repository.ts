import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import { uuidv7 } from '../../server/ids.ts';
import type { SignalCounts } from './signals.ts';
import type { SignalCluster } from './signal-model.ts';

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
  /** Its clusters, strongest first, as `results signals` gives them: kept with their ballots for the console's signals page. */
  clusters: readonly SignalCluster[];
}

/** Rows a statement inserts at once: well under either database's limit of bound values. */
const CHUNK = 1000;

/** Records a look for signals, with its counts for every kind and its clusters with the ballots they name, in one transaction; its id. */
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
    let ballots: Array<{ run_id: string; position: number; ballot_id: string }> = [];
    for (const [position, cluster] of run.clusters.entries()) {
      // A cluster's ids are read afresh each time they are asked for: once here.
      const ids = [...new Set(cluster.ballotIds)];
      await trx
        .insertInto('signal_run_clusters')
        .values({ run_id: id, position, kind: cluster.kind, score: cluster.score, evidence: cluster.evidence, ballots: ids.length })
        .execute();
      for (const ballotId of ids) {
        ballots.push({ run_id: id, position, ballot_id: ballotId });
        if (ballots.length === CHUNK) {
          await trx.insertInto('signal_run_ballots').values(ballots).execute();
          ballots = [];
        }
      }
    }
    if (ballots.length) await trx.insertInto('signal_run_ballots').values(ballots).execute();
  });
  return id;
}

/** A cluster of a recorded run, as kept. */
export interface KeptCluster {
  position: number;
  kind: string;
  score: number;
  evidence: string;
  ballots: number;
}

/**
 * A page of a run's clusters by keyset on their place: the first `limit` after `after`, or the
 * last `limit` before `before`, in the run's order; `more` when more lie beyond in that direction.
 */
export async function keptClusters(
  db: Kysely<Database>,
  runId: string,
  place: { after?: number; before?: number; only?: number },
  limit: number,
): Promise<{ rows: KeptCluster[]; more: boolean }> {
  let query = db.selectFrom('signal_run_clusters').select(['position', 'kind', 'score', 'evidence', 'ballots']).where('run_id', '=', runId);
  if (place.only !== undefined) query = query.where('position', '=', place.only);
  else if (place.before !== undefined) query = query.where('position', '<', place.before);
  else if (place.after !== undefined) query = query.where('position', '>', place.after);
  const rows = await query
    .orderBy('position', place.before !== undefined ? 'desc' : 'asc')
    .limit(limit + 1)
    .execute();
  const more = rows.length > limit;
  const page = rows.slice(0, limit).map((row) => ({ ...row, position: Number(row.position), score: Number(row.score), ballots: Number(row.ballots) }));
  return { rows: place.before !== undefined ? page.reverse() : page, more };
}

/** A page of the ballots one cluster of a run names, by keyset on their id (the order received), as keptClusters pages clusters. */
export async function keptBallots(
  db: Kysely<Database>,
  runId: string,
  position: number,
  place: { after?: string; before?: string },
  limit: number,
): Promise<{ ids: string[]; more: boolean }> {
  let query = db.selectFrom('signal_run_ballots').select('ballot_id').where('run_id', '=', runId).where('position', '=', position);
  if (place.before !== undefined) query = query.where('ballot_id', '<', place.before);
  else if (place.after !== undefined) query = query.where('ballot_id', '>', place.after);
  const rows = await query
    .orderBy('ballot_id', place.before !== undefined ? 'desc' : 'asc')
    .limit(limit + 1)
    .execute();
  const ids = rows.slice(0, limit).map((row) => row.ballot_id);
  return { ids: place.before !== undefined ? ids.reverse() : ids, more: rows.length > limit };
}

/** What the page says of each ballot it lists: when it was received, its operator's exclusion, and (when asked) the answers that name the voter. */
export async function ballotFacts(
  db: Kysely<Database>,
  projectId: string,
  ids: readonly string[],
  nameFields: readonly string[],
): Promise<{
  received: Map<string, string>;
  excluded: Map<string, { by: string; at: string; reason: string }>;
  names: Map<string, Array<{ field: string; value: string }>>;
}> {
  const received = new Map<string, string>();
  const excluded = new Map<string, { by: string; at: string; reason: string }>();
  const names = new Map<string, Array<{ field: string; value: string }>>();
  if (!ids.length) return { received, excluded, names };
  const [ballots, exclusions, answers] = await Promise.all([
    db.selectFrom('ballots').select(['id', 'created_at']).where('project_id', '=', projectId).where('id', 'in', ids).execute(),
    db
      .selectFrom('ballot_exclusions')
      .select(['ballot_id', 'excluded_by', 'excluded_at', 'reason'])
      .where('project_id', '=', projectId)
      .where('ballot_id', 'in', ids)
      .execute(),
    nameFields.length
      ? db
          .selectFrom('answers')
          .select(['ballot_id', 'field', 'value'])
          .where('ballot_id', 'in', ids)
          .where('field', 'in', nameFields)
          .orderBy('ballot_id')
          .orderBy('position')
          .execute()
      : Promise.resolve([]),
  ]);
  for (const row of ballots) received.set(row.id, row.created_at);
  for (const row of exclusions) excluded.set(row.ballot_id, { by: row.excluded_by, at: row.excluded_at, reason: row.reason });
  for (const row of answers) names.set(row.ballot_id, [...(names.get(row.ballot_id) ?? []), { field: row.field, value: row.value }]);
  return { received, excluded, names };
}
