import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ConsoleSignInRow, SignInWay } from '../db/tables/console-sign-ins.table.ts';
import { uuidv7 } from '../ids.ts';

/** One attempt for the sign-in log: what was tried, how it ended, and what is known of who and from where; never a secret. */
export interface SignInAttempt {
  way: SignInWay;
  outcome: ConsoleSignInRow['outcome'];
  operator?: string | null;
  credentialId?: string | null;
  sessionId?: string | null;
  reason?: string | null;
  clientHash?: string | null;
  agent?: string | null;
  now: Date;
}

/** Appends an attempt to the sign-in log. */
export async function logSignIn(db: Kysely<Database>, attempt: SignInAttempt): Promise<void> {
  await db
    .insertInto('console_sign_ins')
    .values({
      id: uuidv7(attempt.now.getTime()),
      at: attempt.now.toISOString(),
      way: attempt.way,
      outcome: attempt.outcome,
      operator: attempt.operator ?? null,
      credential_id: attempt.credentialId ?? null,
      session_id: attempt.sessionId ?? null,
      reason: attempt.reason ?? null,
      client_hash: attempt.clientHash ?? null,
      agent: attempt.agent ?? null,
    })
    .execute();
}

/** The log's attempts since a time (every one without it), oldest first. */
export async function signInsSince(db: Kysely<Database>, since?: string): Promise<ConsoleSignInRow[]> {
  let query = db.selectFrom('console_sign_ins').selectAll();
  if (since) query = query.where('at', '>=', since);
  return query.orderBy('id').execute();
}
