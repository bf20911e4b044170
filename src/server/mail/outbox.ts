import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { MailMessageRow } from '../db/mail-messages.table.ts';
import { database } from '../db/database.ts';
import { findSurvey, type ServerSurvey } from '../surveys.ts';
import { mailTransport } from '../mail.ts';
import { queuedMessages, settleMessage } from './mail.repository.ts';
import { compileMail, type MailValues, type RenderedMail } from '../../mail/render.ts';
import { closesInWords, loadMailTemplate } from '../../survey/mail-templates.ts';
import { formatReceipt } from '../../survey/receipt-code.ts';

/** What a queued receipt carries: never the ballot's answers. */
export interface ReceiptPayload {
  name: string;
  receipt: string;
  receivedAt: string;
  /** The receipt page's address (`/{slug}/receipt` on the site). */
  url: string;
}

/** How often the outbox looks for queued receipts when nothing nudges it. */
const POLL_MS = 5_000;
/** Tries of a receipt a server refuses for now (4xx) before it is `failed`. */
const MAX_ATTEMPTS = 5;

// A survey object lives until its files change (surveys.ts reads them again then): its compiled receipt with it.
const compiled = new WeakMap<ServerSurvey, (values: MailValues) => RenderedMail>();
const receiptOf = (survey: ServerSurvey) => {
  let render = compiled.get(survey);
  if (!render) compiled.set(survey, (render = compileMail(loadMailTemplate(survey.dir, 'receipt'))));
  return render;
};

/** How long a nudge waits before the outbox drains, so that a burst of ballots is sent as one batch. */
const BATCH_MS = 250;

let started = false;
let draining: Promise<void> | undefined;
let again = false;
let pausedUntil = 0;

/** Sends one queued receipt and records its fate; false when the mail server could not be reached (the receipt stays queued). */
async function sendReceipt(db: Kysely<Database>, row: MailMessageRow): Promise<boolean> {
  // Claimed by one drain only: a second instance of the API finds it no longer queued.
  const [claim] = await db
    .updateTable('mail_messages')
    .set({ status: 'sending', attempts: row.attempts + 1 })
    .where('message_id', '=', row.message_id)
    .where('status', '=', 'queued')
    .execute();
  if (Number(claim.numUpdatedRows) !== 1) return true;
  const survey = findSurvey(row.project_id);
  const payload = JSON.parse(row.payload ?? '{}') as ReceiptPayload;
  if (!survey) {
    await settleMessage(db, row.message_id, { status: 'failed', detail: 'the survey is no longer served' });
    return true;
  }
  const mail = receiptOf(survey)({
    name: payload.name,
    url: payload.url,
    survey_title: survey.config.survey_title ?? survey.slug,
    closes: closesInWords(survey.config.expiration_date),
    receipt: formatReceipt(payload.receipt),
    unsubscribe_url: '',
  });
  const outcome = await mailTransport().send(survey, { to: row.recipient, ...mail, messageId: row.message_id });
  if (outcome.status === 'sent') {
    await settleMessage(db, row.message_id, { status: 'sent', detail: outcome.response.slice(0, 200), sentAt: new Date().toISOString() });
    return true;
  }
  if (outcome.status === 'rejected' && (outcome.permanent || row.attempts + 1 >= MAX_ATTEMPTS)) {
    await settleMessage(db, row.message_id, { status: outcome.permanent ? 'bounced' : 'failed', detail: `${outcome.code} ${outcome.response}` });
    return true;
  }
  await settleMessage(db, row.message_id, { status: 'queued', detail: outcome.status === 'rejected' ? `${outcome.code} ${outcome.response}` : outcome.reason });
  return outcome.status === 'rejected';
}

/** Sends every queued receipt, oldest first; stops for a while when the mail server cannot be reached. */
async function drain(): Promise<void> {
  const { db } = await database();
  for (;;) {
    if (Date.now() < pausedUntil) return;
    const rows = await queuedMessages(db, 'receipt', 50);
    if (!rows.length) return;
    const results = await Promise.all(rows.map((row) => sendReceipt(db, row)));
    if (results.includes(false)) {
      // No address or link in the log: only how many wait.
      console.warn(`mail outbox: the mail server cannot be reached; ${rows.length} receipts stay queued and are tried again in a minute.`);
      pausedUntil = Date.now() + 60_000;
      return;
    }
  }
}

/** Runs a drain now, or once more after the one running ends. */
export function nudgeOutbox(): void {
  if (!started) return startOutbox();
  if (draining) {
    again = true;
    return;
  }
  draining = new Promise((resolve) => setTimeout(resolve, BATCH_MS))
    .then(drain)
    .catch((error) => console.warn(`mail outbox: ${(error as Error).message.split('\n')[0]}`))
    .finally(() => {
      draining = undefined;
      if (again) {
        again = false;
        nudgeOutbox();
      }
    });
}

/**
 * Starts the survey API's outbox once: receipts a crash left `sending` go back to the queue (a
 * second receipt is better than none), then queued receipts are sent now and every few seconds.
 */
export function startOutbox(): void {
  if (started) return;
  started = true;
  void database()
    .then(({ db }) => db.updateTable('mail_messages').set({ status: 'queued' }).where('status', '=', 'sending').where('kind', '=', 'receipt').execute())
    .then(() => nudgeOutbox())
    .catch((error) => console.warn(`mail outbox: ${(error as Error).message.split('\n')[0]}`));
  setInterval(nudgeOutbox, POLL_MS).unref();
}
