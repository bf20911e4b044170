import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ConsoleEnrolmentRow, EnrolmentVia, NewConsoleEnrolment } from '../db/tables/console-enrolments.table.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** Stores a new enrolment link. */
export async function insertEnrolment(db: Db, row: NewConsoleEnrolment): Promise<void> {
  await db.insertInto('console_enrolments').values(row).execute();
}

/** The enrolment link whose token has this hash; undefined when there is none. */
export async function enrolmentByHash(db: Db, tokenHash: string): Promise<ConsoleEnrolmentRow | undefined> {
  return db.selectFrom('console_enrolments').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Lets an operator's unused links die now: a new link is the only one that works. */
export async function expireUnusedEnrolments(db: Db, operator: string, at: string): Promise<void> {
  await db
    .updateTable('console_enrolments')
    .set({ expires_at: at })
    .where('operator', '=', operator)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .execute();
}

/** Spends a link: true for the one request that finds it unused and alive, false for every other. */
export async function spendEnrolment(db: Db, tokenHash: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('console_enrolments')
    .set({ used_at: at })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** How many links were made for an operator one way since a time: the mail a person may ask for is limited. */
export async function enrolmentsSince(db: Db, operator: string, via: EnrolmentVia, since: string): Promise<number> {
  const row = await db
    .selectFrom('console_enrolments')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('operator', '=', operator)
    .where('created_at', '>', since)
    .where('via', '=', via)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
