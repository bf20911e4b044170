import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { VerificationCodeRow } from '../db/tables/verification-codes.table.ts';

/** Stores a code sent to an address (its hash only). */
export async function insertCode(db: Kysely<Database>, row: Omit<VerificationCodeRow, 'wrong_tries' | 'used_at'>): Promise<void> {
  await db
    .insertInto('verification_codes')
    .values({ ...row, wrong_tries: 0 })
    .execute();
}

/** The codes sent to an address since `since`, newest first. */
export async function codesSince(db: Kysely<Database>, projectId: string, email: string, since: Date): Promise<VerificationCodeRow[]> {
  return db
    .selectFrom('verification_codes')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('email', '=', email)
    .where('created_at', '>=', since.toISOString())
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Counts one wrong code on an address's latest code; answers the count so far. */
export async function countWrongTry(db: Kysely<Database>, id: string): Promise<number> {
  const row = await db
    .updateTable('verification_codes')
    .set((eb) => ({ wrong_tries: eb('wrong_tries', '+', 1) }))
    .where('id', '=', id)
    .returning('wrong_tries')
    .executeTakeFirst();
  return Number(row?.wrong_tries ?? 0);
}

/** Marks a code used, so that it proves the address once. */
export async function spendCode(db: Kysely<Database>, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('verification_codes')
    .set({ used_at: now.toISOString() })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
