import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { SignalRunRow } from '../db/tables/signal-runs.table.ts';
import { EVERYONE } from '../../survey/people/roster-groups.ts';

// The console's figures, each from an index or a counter: ballots from `ballot_days` (counted in
// each ballot's transaction), messages by (project_id, email_key), refused ballots by
// (project_id, fingerprint), roster groups by their size, signal runs by (project_id, ran_at).
// None reads a whole table, nor every ballot of a survey.

/** Every ballot a survey has stored (the demo link's and replaced ones included): the sum of its days' counters. */
export async function ballotsReceived(db: Kysely<Database>, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('ballot_days')
    .select((eb) => eb.fn.sum<string | number | null>('ballots').as('n'))
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  return Number(row.n ?? 0);
}

/** Ballots stored per day (UTC), oldest first, from the days' counters. */
export async function ballotsPerDay(db: Kysely<Database>, projectId: string): Promise<Array<{ day: string; ballots: number }>> {
  const rows = await db
    .selectFrom('ballot_days')
    .select(['day', (eb) => eb.fn.sum<string | number>('ballots').as('n')])
    .where('project_id', '=', projectId)
    .groupBy('day')
    .orderBy('day')
    .execute();
  return rows.map((row) => ({ day: row.day, ballots: Number(row.n) }));
}

/**
 * A survey's invited people and those of them who responded, from the group of everyone
 * (roster_groups' id 0, counted as the people are read and as each first ballot comes); undefined
 * while its people have not been read since these counts began.
 */
export async function peopleTotals(db: Kysely<Database>, projectId: string): Promise<{ invited: number; responded: number } | undefined> {
  const row = await db
    .selectFrom('roster_groups')
    .select(['invited', 'responded'])
    .where('project_id', '=', projectId)
    .where('id', '=', EVERYONE.id)
    .executeTakeFirst();
  return row && { invited: Number(row.invited), responded: Number(row.responded) };
}

/** The roster columns a survey's people are counted by, in their order, with how many values each holds. */
export async function rosterColumnsOf(db: Kysely<Database>, projectId: string): Promise<Array<{ name: string; groups: number }>> {
  return db.selectFrom('roster_columns').select(['name', 'groups']).where('project_id', '=', projectId).orderBy('position').execute();
}

/** A roster column's `limit` largest groups (most people invited first, then in the order first met), read by a limit from their index. */
export async function largestGroups(
  db: Kysely<Database>,
  projectId: string,
  column: string,
  limit: number,
): Promise<Array<{ value: string; invited: number; responded: number }>> {
  const rows = await db
    .selectFrom('roster_groups')
    .select(['value', 'invited', 'responded'])
    .where('project_id', '=', projectId)
    .where('column_name', '=', column)
    .orderBy('invited', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ value: row.value, invited: Number(row.invited), responded: Number(row.responded) }));
}

/** A survey's latest look for signals, with its counts per kind (in the detectors' order), or undefined before the first. */
export async function latestSignalRun(
  db: Kysely<Database>,
  projectId: string,
): Promise<(SignalRunRow & { kinds: Array<{ kind: string; clusters: number; ballots_named: number }> }) | undefined> {
  const run = await db
    .selectFrom('signal_runs')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('ran_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!run) return undefined;
  const kinds = await db
    .selectFrom('signal_run_kinds')
    .select(['kind', 'clusters', 'ballots_named'])
    .where('run_id', '=', run.id)
    .orderBy('position')
    .execute();
  return { ...run, kinds };
}

/** A survey's messages by kind and status (invitations, reminders, receipts: sent, bounced…). */
export async function messagesByStatus(db: Kysely<Database>, projectId: string): Promise<Array<{ kind: string; status: string; messages: number }>> {
  const rows = await db
    .selectFrom('mail_messages')
    .select(['kind', 'status', (eb) => eb.fn.countAll<string | number>().as('n')])
    .where('project_id', '=', projectId)
    .groupBy(['kind', 'status'])
    .orderBy('kind')
    .orderBy('status')
    .execute();
  return rows.map((row) => ({ kind: row.kind, status: row.status, messages: Number(row.n) }));
}

/** People of a survey's roster whose mail has stopped: unsubscribed, bounced, complained. */
export async function mailStopped(db: Kysely<Database>, projectId: string): Promise<{ unsubscribed: number; bounced: number; complained: number }> {
  const row = await db
    .selectFrom('mail_recipients')
    .select((eb) => [
      eb.fn.count<string | number>('unsubscribed_at').as('unsubscribed'),
      eb.fn.count<string | number>('bounced_at').as('bounced'),
      eb.fn.count<string | number>('complained_at').as('complained'),
    ])
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  return { unsubscribed: Number(row.unsubscribed), bounced: Number(row.bounced), complained: Number(row.complained) };
}

/** A survey's refused ballots by reason, with how many of each an operator has admitted since. */
export async function refusedByReason(db: Kysely<Database>, projectId: string): Promise<Array<{ reason: string; ballots: number; admitted: number }>> {
  const rows = await db
    .selectFrom('refused_ballots')
    .select(['reason', (eb) => eb.fn.countAll<string | number>().as('n'), (eb) => eb.fn.count<string | number>('admitted_at').as('admitted')])
    .where('project_id', '=', projectId)
    .groupBy('reason')
    .orderBy('reason')
    .execute();
  return rows.map((row) => ({ reason: row.reason, ballots: Number(row.n), admitted: Number(row.admitted) }));
}
