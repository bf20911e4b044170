import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never against today's table types.

/**
 * Adds the mail Peervote sends: one row a message (invitation, reminder, receipt) with its
 * Message-ID and fate, recorded before the message leaves; and one row a person of a survey's
 * roster with their unsubscribe token and what ended their mail (unsubscribed, bounced, complained).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mail_messages')
    .addColumn('message_id', 'text', (col) => col.primaryKey())
    .addColumn('project_id', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('email_key', 'text', (col) => col.notNull())
    .addColumn('recipient', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('sent_at', 'text')
    .addColumn('detail', 'text')
    .addColumn('payload', 'text')
    .execute();
  await db.schema.createIndex('mail_messages_person').on('mail_messages').columns(['project_id', 'email_key']).execute();
  await db.schema.createIndex('mail_messages_status').on('mail_messages').columns(['status', 'kind']).execute();
  await db.schema
    .createTable('mail_recipients')
    .addColumn('project_id', 'text', (col) => col.notNull())
    .addColumn('email_key', 'text', (col) => col.notNull())
    .addColumn('unsubscribe_token', 'text', (col) => col.notNull().unique())
    .addColumn('unsubscribed_at', 'text')
    .addColumn('bounced_at', 'text')
    .addColumn('complained_at', 'text')
    .addColumn('detail', 'text')
    .addPrimaryKeyConstraint('mail_recipients_pk', ['project_id', 'email_key'])
    .execute();
}

/** Drops both tables. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mail_recipients').ifExists().execute();
  await db.schema.dropTable('mail_messages').ifExists().execute();
}
