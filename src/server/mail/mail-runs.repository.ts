import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { MailRunRow, MailRunsTable } from '../db/tables/mail-runs.table.ts';
import { holderGone, THIS_PROCESS, type Claimant } from './claimant.ts';

// The console's send runs (mail_runs): started, claimed by the process that drives them, renewed,
// ended, and counted by their messages.

/** How long a driver's claim on a run holds without renewal: a few of its renewals missed. */
export const RUN_LEASE_MS = 30_000;

/** A run as it is first written. */
export type NewMailRun = Pick<MailRunsTable, 'id' | 'project_id' | 'campaign' | 'rate' | 'base_url' | 'started_by' | 'started_by_email' | 'started_at'>;

/** The lease columns of a claim by `claimant` until `now` + RUN_LEASE_MS. */
const lease = (claimant: Claimant, now: Date) => ({
  lease_owner: claimant.owner,
  lease_host: claimant.host,
  lease_pid: claimant.pid,
  lease_expires_at: new Date(now.getTime() + RUN_LEASE_MS).toISOString(),
});

/** The run of a survey that is running, if any. */
async function runningRun(db: Kysely<Database>, projectId: string): Promise<MailRunRow | undefined> {
  return db.selectFrom('mail_runs').selectAll().where('project_id', '=', projectId).where('state', '=', 'running').executeTakeFirst();
}

/**
 * Writes a new run, claimed by `claimant`, unless the survey has one running: the partial unique
 * index mail_runs_one_running lets only one of two starts at once insert. The run, or undefined
 * when another runs.
 */
export async function insertRun(db: Kysely<Database>, run: NewMailRun, claimant: Claimant, now = new Date()): Promise<MailRunRow | undefined> {
  const row = { ...run, state: 'running' as const, total: null, skipped: null, ended_at: null, outcome: null, counts: null, ...lease(claimant, now) };
  try {
    await db.insertInto('mail_runs').values(row).execute();
    return row;
  } catch (error) {
    if (await runningRun(db, run.project_id)) return undefined;
    throw error;
  }
}

/** True when a run's driver is alive as far as can be told: its claim has not run out, and its process is not seen gone. */
export function leaseLive(run: MailRunRow, now = new Date(), self: Claimant = THIS_PROCESS): boolean {
  if (!run.lease_owner || !run.lease_expires_at || Date.parse(run.lease_expires_at) <= now.getTime()) return false;
  return !holderGone({ owner: run.lease_owner, host: run.lease_host ?? '', pid: Number(run.lease_pid) }, self);
}

/** A running console run of the survey other than `except` whose driver is alive: it holds the survey, as a `send` does. */
export async function liveConsoleRun(db: Kysely<Database>, projectId: string, except?: string): Promise<MailRunRow | undefined> {
  const run = await runningRun(db, projectId);
  return run && run.id !== except && leaseLive(run) ? run : undefined;
}

/** Every running run, of every survey: for the processes that look for runs to drive. */
export async function runningRuns(db: Kysely<Database>): Promise<MailRunRow[]> {
  return db.selectFrom('mail_runs').selectAll().where('state', '=', 'running').execute();
}

/**
 * Claims a running run for `claimant` from the driver it was read with: one statement that
 * changes the row only if that driver still holds it, so that of two processes that saw it
 * abandoned one takes it. True when taken.
 */
export async function takeRun(db: Kysely<Database>, run: MailRunRow, claimant: Claimant, now = new Date()): Promise<boolean> {
  let query = db.updateTable('mail_runs').set(lease(claimant, now)).where('id', '=', run.id).where('state', '=', 'running');
  query = run.lease_owner === null ? query.where('lease_owner', 'is', null) : query.where('lease_owner', '=', run.lease_owner);
  query = run.lease_expires_at === null ? query.where('lease_expires_at', 'is', null) : query.where('lease_expires_at', '=', run.lease_expires_at);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Renews a driver's claim; false when it no longer holds the run (another took it, or it ended). */
export async function renewRun(db: Kysely<Database>, id: string, claimant: Claimant, now = new Date()): Promise<boolean> {
  const result = await db
    .updateTable('mail_runs')
    .set(lease(claimant, now))
    .where('id', '=', id)
    .where('state', '=', 'running')
    .where('lease_owner', '=', claimant.owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Lets a run go for another process to take at its next look (its driver could not go on just now). */
export async function releaseRun(db: Kysely<Database>, id: string, claimant: Claimant): Promise<void> {
  await db
    .updateTable('mail_runs')
    .set({ lease_owner: null, lease_host: null, lease_pid: null, lease_expires_at: null })
    .where('id', '=', id)
    .where('lease_owner', '=', claimant.owner)
    .execute();
}

/** Records whom a run chose and skipped when it first planned; a run resumed keeps its first count. */
export async function planRun(db: Kysely<Database>, id: string, total: number, skipped: Record<string, number>): Promise<void> {
  await db
    .updateTable('mail_runs')
    .set({ total, skipped: JSON.stringify(skipped) })
    .where('id', '=', id)
    .where('total', 'is', null)
    .execute();
}

/** Ends a run, done or stopped, with its last word and its messages' counts by status. */
export async function endRun(
  db: Kysely<Database>,
  id: string,
  state: 'done' | 'stopped',
  outcome: string,
  counts: Record<string, number>,
  now = new Date(),
): Promise<void> {
  await db
    .updateTable('mail_runs')
    .set({
      state,
      outcome,
      counts: JSON.stringify(counts),
      ended_at: now.toISOString(),
      lease_owner: null,
      lease_host: null,
      lease_pid: null,
      lease_expires_at: null,
    })
    .where('id', '=', id)
    .where('state', '=', 'running')
    .execute();
}

/** A survey's latest run, or the one with this id. */
export async function surveyRun(db: Kysely<Database>, projectId: string, id?: string): Promise<MailRunRow | undefined> {
  let query = db.selectFrom('mail_runs').selectAll().where('project_id', '=', projectId);
  query = id ? query.where('id', '=', id) : query.orderBy('started_at', 'desc').orderBy('id', 'desc').limit(1);
  return query.executeTakeFirst();
}

/** A run's messages by status (in the index mail_messages_run). */
export async function runCounts(db: Kysely<Database>, runId: string): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('mail_messages')
    .select(['status', db.fn.countAll<number>().as('n')])
    .where('run_id', '=', runId)
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
}
