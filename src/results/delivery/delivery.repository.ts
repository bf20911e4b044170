import { createHmac } from 'node:crypto';
import type { CompiledQuery, Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { MailKind, MailStatus, NewMailMessage } from '../../server/db/mail-messages.table.ts';
import type { MailRecipientRow } from '../../server/db/mail-recipients.table.ts';

/** One person's mail so far: what ended it (if anything) and each invitation and reminder, oldest first. */
export interface MailHistory {
  recipient?: MailRecipientRow;
  messages: Array<{ message_id: string; kind: MailKind; status: MailStatus; created_at: string; sent_at: string | null; detail: string | null }>;
}

/**
 * A person's unsubscribe token: an HMAC of survey and address under the installation's secret, in
 * base64url (256 bits); it tells nothing of the address and is not the personal link's secret.
 */
export function unsubscribeToken(secret: string, projectId: string, key: string): string {
  return createHmac('sha256', secret).update(`unsubscribe\0${projectId}\0${key}`).digest('base64url');
}

/** Makes sure each address has its recipient row (and token, as unsubscribeToken made it) before any message to it leaves. */
export async function ensureRecipients(db: Kysely<Database>, projectId: string, people: ReadonlyArray<{ key: string; token: string }>): Promise<void> {
  for (let start = 0; start < people.length; start += 500) {
    const rows = people.slice(start, start + 500).map(({ key, token }) => ({
      project_id: projectId,
      email_key: key,
      unsubscribe_token: token,
      unsubscribed_at: null,
      bounced_at: null,
      complained_at: null,
      detail: null,
    }));
    if (rows.length)
      await db
        .insertInto('mail_recipients')
        .values(rows)
        .onConflict((oc) => oc.columns(['project_id', 'email_key']).doNothing())
        .execute();
  }
}

/**
 * What became of a message `send` handed over: accepted, refused for good (the person is then
 * bounced too), refused for now to the last try, or never left because no server answered (its
 * row is then forgotten, so that the person keeps the state they had).
 */
export type SendFate =
  | { readonly messageId: string; readonly status: 'sent'; readonly detail: string; readonly sentAt: string }
  | { readonly messageId: string; readonly status: 'failed'; readonly detail: string }
  | {
      readonly messageId: string;
      readonly status: 'bounced';
      readonly detail: string;
      readonly projectId: string;
      readonly emailKey: string;
      readonly at: string;
    }
  | { readonly messageId: string; readonly status: 'forgotten' };

/**
 * The statements that record the fates of messages that were answered and the rows (status
 * `sending`) of messages about to be handed over, to run in one transaction (send's record writer:
 * a thread of its own on SQLite, the run's connection on PostgreSQL): `send` hands in each connection's last answer with its next message, so the
 * rows `sending` on disk are never more than its connections.
 */
export function sendRecords(db: Kysely<Database>, fates: readonly SendFate[], rows: readonly NewMailMessage[]): CompiledQuery[] {
  const statements: CompiledQuery[] = [];
  const forgotten: string[] = [];
  for (const fate of fates) {
    if (fate.status === 'forgotten') {
      forgotten.push(fate.messageId);
      continue;
    }
    statements.push(
      db
        .updateTable('mail_messages')
        .set(fate.status === 'sent' ? { status: 'sent', detail: fate.detail, sent_at: fate.sentAt } : { status: fate.status, detail: fate.detail })
        .where('message_id', '=', fate.messageId)
        .compile(),
    );
    if (fate.status === 'bounced')
      statements.push(
        db
          .updateTable('mail_recipients')
          .set({ bounced_at: fate.at, detail: fate.detail })
          .where('project_id', '=', fate.projectId)
          .where('email_key', '=', fate.emailKey)
          .compile(),
      );
  }
  if (forgotten.length) statements.push(db.deleteFrom('mail_messages').where('message_id', 'in', forgotten).compile());
  if (rows.length) statements.push(db.insertInto('mail_messages').values(rows).compile());
  return statements;
}

/** Every address's mail history for a survey (invitations and reminders), by address key. */
export async function mailHistories(db: Kysely<Database>, projectId: string): Promise<Map<string, MailHistory>> {
  const histories = new Map<string, MailHistory>();
  const of = (key: string) => {
    let history = histories.get(key);
    if (!history) histories.set(key, (history = { messages: [] }));
    return history;
  };
  for (const row of await db.selectFrom('mail_recipients').selectAll().where('project_id', '=', projectId).execute()) of(row.email_key).recipient = row;
  const messages = await db
    .selectFrom('mail_messages')
    .select(['email_key', 'message_id', 'kind', 'status', 'created_at', 'sent_at', 'detail'])
    .where('project_id', '=', projectId)
    .where('kind', 'in', ['invitation', 'reminder'])
    .orderBy('created_at')
    .orderBy('message_id')
    .execute();
  for (const { email_key, ...message } of messages) of(email_key).messages.push(message);
  return histories;
}

/** The message with this Message-ID, if Peervote sent it. */
export async function messageById(db: Kysely<Database>, messageId: string) {
  return db.selectFrom('mail_messages').selectAll().where('message_id', '=', messageId).executeTakeFirst();
}

/** The message whose Message-ID begins `<local@`: a VERP return path carries that local part. */
export async function messageByLocalPart(db: Kysely<Database>, local: string) {
  return db
    .selectFrom('mail_messages')
    .selectAll()
    .where('message_id', 'like', `<${local.replace(/[%_\\]/g, '')}@%`)
    .executeTakeFirst();
}

/** Marks a message and its person as bounced or complained, as a report that arrived later says. */
export async function recordReport(
  db: Kysely<Database>,
  message: { message_id: string; project_id: string; email_key: string },
  fate: 'bounced' | 'complained',
  detail: string,
  at: string,
  token: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('mail_messages').set({ status: fate, detail }).where('message_id', '=', message.message_id).execute();
    await trx
      .insertInto('mail_recipients')
      .values({
        project_id: message.project_id,
        email_key: message.email_key,
        unsubscribe_token: token,
        unsubscribed_at: null,
        bounced_at: fate === 'bounced' ? at : null,
        complained_at: fate === 'complained' ? at : null,
        detail,
      })
      .onConflict((oc) => oc.columns(['project_id', 'email_key']).doUpdateSet(fate === 'bounced' ? { bounced_at: at, detail } : { complained_at: at, detail }))
      .execute();
  });
}

/** Notes a temporary delay on a message without changing its fate. */
export async function noteDelay(db: Kysely<Database>, messageId: string, detail: string): Promise<void> {
  await db.updateTable('mail_messages').set({ detail }).where('message_id', '=', messageId).execute();
}
