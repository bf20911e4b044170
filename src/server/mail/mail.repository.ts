import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { MailKind, MailMessageRow, MailStatus, NewMailMessage } from '../db/tables/mail-messages.table.ts';
import type { MailRecipientRow } from '../db/tables/mail-recipients.table.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** An address as the mail tables key it: trimmed, lower case (as the roster compares addresses). */
export function recipientKey(email: string): string {
  const text = /^[\x20-\x7e]*$/.test(email) ? email : email.normalize('NFKC');
  return text.trim().toLowerCase();
}

/** Records what became of a message: its status, the server's answer, when it went, how many tries. */
export async function settleMessage(
  db: Db,
  messageId: string,
  update: { status: MailStatus; detail?: string | null; sentAt?: string | null; attempts?: number },
): Promise<void> {
  await db
    .updateTable('mail_messages')
    .set({
      status: update.status,
      detail: update.detail ?? null,
      ...(update.sentAt !== undefined ? { sent_at: update.sentAt } : {}),
      ...(update.attempts !== undefined ? { attempts: update.attempts } : {}),
    })
    .where('message_id', '=', messageId)
    .execute();
}

/**
 * Marks as `unknown` the messages of these kinds still `sending`: the process that handed them
 * over died before the answer was recorded, so they may or may not have gone.
 */
export async function markInterrupted(db: Db, kinds: readonly MailKind[], projectId?: string): Promise<number> {
  let query = db
    .updateTable('mail_messages')
    .set({ status: 'unknown', detail: 'the sending process stopped before the server answered' })
    .where('status', '=', 'sending')
    .where('kind', 'in', kinds);
  if (projectId) query = query.where('project_id', '=', projectId);
  const [result] = await query.execute();
  return Number(result.numUpdatedRows);
}

/** What the outbox records of one message it tried: as settleMessage takes it. */
export interface Settlement {
  messageId: string;
  status: MailStatus;
  detail: string | null;
  sentAt?: string;
}

/** Records what became of several messages in one transaction. */
export async function settleMessages(db: Kysely<Database>, settlements: readonly Settlement[]): Promise<void> {
  if (!settlements.length) return;
  await db.transaction().execute(async (trx) => {
    for (const { messageId, ...update } of settlements) await settleMessage(trx, messageId, update);
  });
}

/** The oldest ballots of these surveys still owed a receipt by mail (the partial index ballots_receipt_mail_due), with what their message needs. */
export async function owedReceipts(db: Db, projectIds: readonly string[], limit: number) {
  if (!projectIds.length) return [];
  return db
    .selectFrom('ballots')
    .select(['id', 'project_id', 'personal_secret', 'verified_email', 'receipt', 'created_at', 'receipt_mail_due'])
    .where('receipt_mail_due', 'is not', null)
    .where('project_id', 'in', projectIds)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Queues the messages of owed receipts in one transaction: each ballot's debt is cleared, and its
 * message, where it has one, inserted. A ballot whose debt another instance of the API cleared
 * meanwhile is left out, so that no receipt is queued twice.
 */
export async function queueOwedReceipts(db: Kysely<Database>, owed: ReadonlyArray<{ ballotId: string; message?: NewMailMessage }>): Promise<number> {
  if (!owed.length) return 0;
  return db.transaction().execute(async (trx) => {
    const cleared = await trx
      .updateTable('ballots')
      .set({ receipt_mail_due: null })
      .where(
        'id',
        'in',
        owed.map((one) => one.ballotId),
      )
      .where('receipt_mail_due', 'is not', null)
      .returning('id')
      .execute();
    const still = new Set(cleared.map((row) => row.id));
    const messages = owed.flatMap((one) => (one.message && still.has(one.ballotId) ? [one.message] : []));
    if (messages.length) await trx.insertInto('mail_messages').values(messages).execute();
    return messages.length;
  });
}

/** How long an outbox's claim on the receipts it sends holds: far longer than a batch takes (the SMTP timeouts are a minute or two). */
const RECEIPT_CLAIM_MS = 5 * 60_000;

/**
 * Claims the oldest queued messages of a kind for one outbox (status `sending`, one more try,
 * claimed by `claimant` for RECEIPT_CLAIM_MS): only those still queued when the update runs come
 * back, so a second instance of the API that read the same rows claims none of them twice.
 */
export async function claimQueued(db: Db, kind: MailKind, limit: number, claimant: string, now = new Date()): Promise<MailMessageRow[]> {
  const queued = await db
    .selectFrom('mail_messages')
    .select('message_id')
    .where('status', '=', 'queued')
    .where('kind', '=', kind)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  if (!queued.length) return [];
  const claimed = await db
    .updateTable('mail_messages')
    .set({
      status: 'sending',
      attempts: sql<number>`attempts + 1`,
      claimed_by: claimant,
      claim_expires_at: new Date(now.getTime() + RECEIPT_CLAIM_MS).toISOString(),
    })
    .where(
      'message_id',
      'in',
      queued.map((row) => row.message_id),
    )
    .where('status', '=', 'queued')
    .returningAll()
    .execute();
  // Oldest first, as they were queued: the update returns them in no set order.
  return claimed.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
}

/**
 * Puts back in the queue the messages of a kind left `sending` by an outbox that is gone: its
 * claim has run out (or it has none, from before claims), or `gone` says its process no longer
 * runs. One statement, so that of several processes doing this at once only one puts each back,
 * and a message another process is sending now is left to it. How many were put back.
 */
export async function requeueAbandoned(db: Db, kind: MailKind, gone: (owner: string) => boolean, now = new Date()): Promise<number> {
  const holders = await db.selectFrom('mail_messages').select('claimed_by').distinct().where('status', '=', 'sending').where('kind', '=', kind).execute();
  const dead = holders.flatMap((row) => (row.claimed_by && gone(row.claimed_by) ? [row.claimed_by] : []));
  const [result] = await db
    .updateTable('mail_messages')
    .set({ status: 'queued', claimed_by: null, claim_expires_at: null })
    .where('status', '=', 'sending')
    .where('kind', '=', kind)
    .where((eb) =>
      eb.or([eb('claim_expires_at', 'is', null), eb('claim_expires_at', '<', now.toISOString()), ...(dead.length ? [eb('claimed_by', 'in', dead)] : [])]),
    )
    .execute();
  return Number(result.numUpdatedRows);
}

/** The recipient with this unsubscribe token, if any. */
export async function recipientByToken(db: Db, token: string): Promise<MailRecipientRow | undefined> {
  return db.selectFrom('mail_recipients').selectAll().where('unsubscribe_token', '=', token).executeTakeFirst();
}

/** Records an unsubscribe (the first one's time stays); false when the token names no one. */
export async function unsubscribe(db: Db, token: string, at: string): Promise<MailRecipientRow | undefined> {
  await db
    .updateTable('mail_recipients')
    .set({ unsubscribed_at: sql<string>`coalesce(unsubscribed_at, ${at})` })
    .where('unsubscribe_token', '=', token)
    .execute();
  return recipientByToken(db, token);
}
