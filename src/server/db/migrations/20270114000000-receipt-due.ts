import { sql, type Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never against today's table types.

/**
 * A receipt by mail is owed on the ballot's own row (`receipt_mail_due`, the receipt page's
 * address the message links to) instead of a `mail_messages` row written with every ballot: the
 * ballot's transaction writes no other table for it, and the API's outbox turns what is owed into
 * queued messages a batch at a time. The partial index holds only the ballots whose receipt is
 * still owed, oldest first.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ballots').addColumn('receipt_mail_due', 'text').execute();
  await db.schema
    .createIndex('ballots_receipt_mail_due')
    .on('ballots')
    .columns(['created_at', 'id'])
    .where(sql.ref('receipt_mail_due'), 'is not', null)
    .execute();
}

/** Drops them. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ballots_receipt_mail_due').ifExists().execute();
  await db.schema.alterTable('ballots').dropColumn('receipt_mail_due').execute();
}
