import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ConsoleCredentialRow, NewConsoleCredential } from '../db/tables/console-credentials.table.ts';
import type { ConsoleChallengeRow, NewConsoleChallenge } from '../db/tables/console-challenges.table.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** A passkey by its credential id; undefined when no operator has it. */
export async function credentialById(db: Db, id: string): Promise<ConsoleCredentialRow | undefined> {
  return db.selectFrom('console_credentials').selectAll().where('id', '=', id).executeTakeFirst();
}

/** An operator's passkeys, oldest first. */
export async function credentialsOf(db: Db, operator: string): Promise<ConsoleCredentialRow[]> {
  return db.selectFrom('console_credentials').selectAll().where('operator', '=', operator).orderBy('created_at').orderBy('id').execute();
}

/** Every operator's count of passkeys and when one was last used, for the operators' list. */
export async function credentialSummary(db: Db): Promise<Map<string, { passkeys: number; lastUsedAt: string | null }>> {
  const rows = await db
    .selectFrom('console_credentials')
    .select(['operator', (eb) => eb.fn.countAll<string | number>().as('passkeys'), (eb) => eb.fn.max('last_used_at').as('last_used_at')])
    .groupBy('operator')
    .execute();
  return new Map(rows.map((row) => [row.operator, { passkeys: Number(row.passkeys), lastUsedAt: row.last_used_at ?? null }]));
}

/** Stores a new passkey. */
export async function insertCredential(db: Db, row: NewConsoleCredential): Promise<void> {
  await db.insertInto('console_credentials').values(row).execute();
}

/** Notes a sign-in with a passkey: its new signature counter and when. */
export async function credentialUsed(db: Db, id: string, counter: number, at: string): Promise<void> {
  await db.updateTable('console_credentials').set({ counter, last_used_at: at }).where('id', '=', id).execute();
}

/** Removes one of an operator's passkeys; true when it was theirs. */
export async function deleteCredential(db: Db, operator: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('console_credentials').where('id', '=', id).where('operator', '=', operator).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Stores a ceremony's challenge, and clears challenges that have died meanwhile. */
export async function insertChallenge(db: Db, row: NewConsoleChallenge, now: string): Promise<void> {
  await db.deleteFrom('console_challenges').where('expires_at', '<', now).execute();
  await db.insertInto('console_challenges').values(row).execute();
}

/** Takes a ceremony's challenge out, so that it serves once; undefined when there is none (never made, or used already). */
export async function takeChallenge(db: Db, id: string): Promise<ConsoleChallengeRow | undefined> {
  return db.deleteFrom('console_challenges').where('id', '=', id).returningAll().executeTakeFirst();
}
