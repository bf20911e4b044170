import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

// The console's figures, each from an index: ballots by (project_id, created_at), current
// personal ballots by the partial index that keeps one per secret, messages by (project_id,
// email_key), refused ballots by (project_id, fingerprint). None reads a whole table.

/** Every ballot a survey has stored (the demo link's and replaced ones included): counted in the index on (project_id, created_at). */
export async function ballotsReceived(db: Kysely<Database>, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('ballots')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The personal links that have a current ballot: counted in the partial index that keeps one current ballot per secret. */
export async function personalLinksVoted(db: Kysely<Database>, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('ballots')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('project_id', '=', projectId)
    .where('personal_secret', 'is not', null)
    .where('replaced_by', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Ballots stored per day (UTC), oldest first, from the index on (project_id, created_at). */
export async function ballotsPerDay(db: Kysely<Database>, projectId: string): Promise<Array<{ day: string; ballots: number }>> {
  const day = sql<string>`substr(created_at, 1, 10)`;
  const rows = await db
    .selectFrom('ballots')
    .select([day.as('day'), (eb) => eb.fn.countAll<string | number>().as('n')])
    .where('project_id', '=', projectId)
    .groupBy(day)
    .orderBy(day)
    .execute();
  return rows.map((row) => ({ day: row.day, ballots: Number(row.n) }));
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
