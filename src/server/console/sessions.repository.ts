import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ConsoleSessionRow, NewConsoleSession, SessionEnd } from '../db/tables/console-sessions.table.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** Stores a new session. */
export async function insertSession(db: Db, row: NewConsoleSession): Promise<void> {
  await db.insertInto('console_sessions').values(row).execute();
}

/** The session with this id, ended or not; undefined when there is none. */
export async function sessionById(db: Db, id: string): Promise<ConsoleSessionRow | undefined> {
  return db.selectFrom('console_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Notes a request seen in a session, for its idle limit. */
export async function touchSession(db: Db, id: string, at: string): Promise<void> {
  await db.updateTable('console_sessions').set({ last_seen_at: at }).where('id', '=', id).where('ended_at', 'is', null).execute();
}

/** Notes a passkey check in a session, for the acts that ask for one in the last five minutes. */
export async function markReauthenticated(db: Db, id: string, at: string): Promise<void> {
  await db.updateTable('console_sessions').set({ reauthenticated_at: at, last_seen_at: at }).where('id', '=', id).where('ended_at', 'is', null).execute();
}

/** Ends one session of an operator (it must be theirs); true when it was open until now. */
export async function endSessionRow(db: Db, id: string, operator: string, why: SessionEnd, at: string): Promise<boolean> {
  const result = await db
    .updateTable('console_sessions')
    .set({ ended_at: at, ended_why: why })
    .where('id', '=', id)
    .where('operator', '=', operator)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Ends every session of an operator not ended yet (but `except`); how many it ended, expired ones included. */
export async function endSessionRows(db: Db, operator: string, why: SessionEnd, at: string, except?: string): Promise<number> {
  let query = db.updateTable('console_sessions').set({ ended_at: at, ended_why: why }).where('operator', '=', operator).where('ended_at', 'is', null);
  if (except) query = query.where('id', '!=', except);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** An operator's sessions not ended and begun after `createdAfter`, newest first: those that may still be open. */
export async function unendedSessions(db: Db, operator: string, createdAfter: string): Promise<ConsoleSessionRow[]> {
  return db
    .selectFrom('console_sessions')
    .selectAll()
    .where('operator', '=', operator)
    .where('created_at', '>', createdAfter)
    .where('ended_at', 'is', null)
    .orderBy('created_at', 'desc')
    .execute();
}
