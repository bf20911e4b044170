import { createHmac } from 'node:crypto';
import type { CompiledQuery, Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { MailKind, MailStatus, NewMailMessage } from '../../server/db/tables/mail-messages.table.ts';
import type { MailRecipientRow } from '../../server/db/tables/mail-recipients.table.ts';
import type { SendRunRow } from '../../server/db/tables/send-runs.table.ts';
import { processAlive } from '../../server/mail/claimant.ts';

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

/** Who is running `send`: a run's id, and the machine and process it runs in. */
export interface SendRunner {
  runId: string;
  host: string;
  pid: number;
  campaign: string;
}

/**
 * How long a run may stay silent before another may take its survey: some six renewals missed.
 * Exported for its tests.
 * @internal
 */
export const SEND_RUN_SILENCE_MS = 60_000;

/**
 * Takes the survey's sending for this run, unless another run holds it: resolves with nothing
 * when taken, else with the run that holds it. A holder counts while it has renewed within
 * SEND_RUN_SILENCE_MS, unless it ran on this machine and its process is gone (a run killed with
 * kill -9). Two runs that start at once cannot both take it: the row is created, or replaced
 * from the very holder that was read, in one statement each.
 */
export async function takeSendRun(db: Kysely<Database>, projectId: string, runner: SendRunner, now = new Date()): Promise<SendRunRow | undefined> {
  const at = now.toISOString();
  const row = { project_id: projectId, run_id: runner.runId, host: runner.host, pid: runner.pid, campaign: runner.campaign, started_at: at, renewed_at: at };
  for (let attempt = 0; attempt < 5; attempt++) {
    const holder = await db.selectFrom('send_runs').selectAll().where('project_id', '=', projectId).executeTakeFirst();
    if (!holder) {
      const inserted = await db
        .insertInto('send_runs')
        .values(row)
        .onConflict((oc) => oc.column('project_id').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return undefined;
      continue;
    }
    const silent = now.getTime() - Date.parse(holder.renewed_at) > SEND_RUN_SILENCE_MS;
    const gone = holder.host === runner.host && !processAlive(Number(holder.pid));
    if (!silent && !gone) return holder;
    const taken = await db.updateTable('send_runs').set(row).where('project_id', '=', projectId).where('run_id', '=', holder.run_id).executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) return undefined;
  }
  throw new Error(`Could not tell which send run holds ${projectId}: it changed hands five times while asked.`);
}

/** Says the run is alive; false when it no longer holds the survey (another run took it after a long silence). */
export async function renewSendRun(db: Kysely<Database>, projectId: string, runId: string, now = new Date()): Promise<boolean> {
  const result = await db
    .updateTable('send_runs')
    .set({ renewed_at: now.toISOString() })
    .where('project_id', '=', projectId)
    .where('run_id', '=', runId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The run that holds the survey's sending now, if one does and has been heard from (as takeSendRun weighs it), without taking it. */
export async function liveSendRun(db: Kysely<Database>, projectId: string, host: string, now = new Date()): Promise<SendRunRow | undefined> {
  const holder = await db.selectFrom('send_runs').selectAll().where('project_id', '=', projectId).executeTakeFirst();
  if (!holder) return undefined;
  const silent = now.getTime() - Date.parse(holder.renewed_at) > SEND_RUN_SILENCE_MS;
  const gone = holder.host === host && !processAlive(Number(holder.pid));
  return silent || gone ? undefined : holder;
}

/** Lets the survey's sending go, if this run still holds it. */
export async function endSendRun(db: Kysely<Database>, projectId: string, runId: string): Promise<void> {
  await db.deleteFrom('send_runs').where('project_id', '=', projectId).where('run_id', '=', runId).execute();
}
