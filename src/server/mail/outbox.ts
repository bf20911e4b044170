import { performance } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { MailMessageRow } from '../db/tables/mail-messages.table.ts';
import { database } from '../db/database.ts';
import { allServerSurveys, findSurvey, type ServerSurvey } from '../surveys.ts';
import { mailTransport } from '../mail.ts';
import { claimQueued, owedReceipts, queueOwedReceipts, requeueAbandoned, settleMessages, type Settlement } from './mail.repository.ts';
import { claimantOf, holderGone, THIS_PROCESS } from './claimant.ts';
import { receiptMessage, type ReceiptPayload } from './receipt-mail.ts';
import { serverConfig } from '../config.ts';
import { compileMail, type MailValues, type RenderedMail } from '../../mail/render.ts';
import { closesInWords, loadMailTemplate } from '../../survey/mail/mail-templates.ts';
import { formatReceipt } from '../../survey/published/receipt-code.ts';
import { localizeSurvey, offers } from '../../survey/config/translations.ts';

/** How often the outbox looks for queued receipts when nothing nudges it. */
const POLL_MS = 5_000;
/** Tries of a receipt a server refuses for now (4xx) before it is `failed`. */
const MAX_ATTEMPTS = 5;

// A survey object lives until its files change (surveys.ts reads them again then): its compiled receipts with it, one a language.
const compiled = new WeakMap<ServerSurvey, Map<string, (values: MailValues) => RenderedMail>>();
const receiptOf = (survey: ServerSurvey, lang: string) => {
  let byLanguage = compiled.get(survey);
  if (!byLanguage) compiled.set(survey, (byLanguage = new Map()));
  let render = byLanguage.get(lang);
  if (!render) {
    const template = loadMailTemplate(survey.dir, 'receipt');
    const own = lang === survey.config.languages[0] ? undefined : survey.config.translations?.[lang]?.mail?.receipt;
    byLanguage.set(lang, (render = compileMail({ ...template, subject: own?.subject ?? template.subject, body: own?.body ?? template.body }, undefined, lang)));
  }
  return render;
};

/** The language a receipt is written in: that of the receipt page it links to (`/es/{slug}/receipt`), else the survey's default. */
function receiptLanguage(survey: ServerSurvey, url: string): string {
  const lang = /\/([a-z]{2,3}(?:-[A-Za-z0-9]+)*)\/[^/]+\/receipt$/.exec(url)?.[1];
  return lang && offers(survey.config.languages, lang) ? lang : survey.config.languages[0]!;
}

/** How long a nudge waits before the outbox drains, so that a burst of ballots is sent as one batch. */
const BATCH_MS = 250;
/** Receipts queued, claimed, sent and recorded together: three transactions a batch, not three a receipt. */
const BATCH_SIZE = 20;
/** How long the outbox looks at the event loop after a batch to tell whether ballots keep the API busy (more than half of it in use). */
const LOOK_MS = 25;
/**
 * How long the outbox rests after a batch while the API is busy: ballots come first, and receipts
 * still go, a batch at a time, at full speed again as soon as the API has a moment.
 */
const BUSY_REST_MS = 1_000;

let started = false;
let draining: Promise<void> | undefined;
let again = false;
let pausedUntil = 0;

/** Sends one claimed receipt; what to record of it, and whether the mail server could be reached. */
async function sendReceipt(row: MailMessageRow): Promise<{ settlement: Settlement; reached: boolean }> {
  const survey = findSurvey(row.project_id);
  if (!survey) return { settlement: { messageId: row.message_id, status: 'failed', detail: 'the survey is no longer served' }, reached: true };
  const payload = JSON.parse(row.payload ?? '{}') as ReceiptPayload;
  const lang = receiptLanguage(survey, payload.url);
  const mail = receiptOf(
    survey,
    lang,
  )({
    name: payload.name,
    url: payload.url,
    survey_title: localizeSurvey(survey.config, lang).survey_title ?? survey.slug,
    closes: closesInWords(survey.config.expiration_date, lang === survey.config.languages[0] ? 'en-US' : lang, survey.config.time_zone),
    receipt: formatReceipt(payload.receipt),
    unsubscribe_url: '',
  });
  const outcome = await mailTransport().send(survey, { to: row.recipient, ...mail, messageId: row.message_id });
  const messageId = row.message_id;
  if (outcome.status === 'sent') {
    return { settlement: { messageId, status: 'sent', detail: outcome.response.slice(0, 200), sentAt: new Date().toISOString() }, reached: true };
  }
  if (outcome.status === 'rejected' && (outcome.permanent || row.attempts >= MAX_ATTEMPTS)) {
    return { settlement: { messageId, status: outcome.permanent ? 'bounced' : 'failed', detail: `${outcome.code} ${outcome.response}` }, reached: true };
  }
  // Back to the queue: a 4xx is tried again by a later drain, and so is everything when no server answered.
  const detail = outcome.status === 'rejected' ? `${outcome.code} ${outcome.response}` : outcome.reason;
  return { settlement: { messageId, status: 'queued', detail }, reached: outcome.status === 'rejected' };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** After a batch: rests while other work keeps the API busy, so that the receipts never slow the ballots down. */
async function yieldToBallots(): Promise<void> {
  const before = performance.eventLoopUtilization();
  await wait(LOOK_MS);
  if (performance.eventLoopUtilization(before).utilization > 0.5) await wait(BUSY_REST_MS);
}

/**
 * Queues the messages of the oldest receipts still owed on their ballots' rows, a batch in one
 * transaction. Only the surveys the API serves now are looked at: a survey missing for a moment
 * (a deploy copying its folder) keeps its receipts owed until it is back. A ballot whose person
 * has left the roster owes nothing any more: there is no address to mail.
 */
async function queueOwed(db: Kysely<Database>): Promise<void> {
  const surveys = new Map(allServerSurveys().map((survey) => [survey.config.project_id, survey]));
  const ballots = await owedReceipts(db, [...surveys.keys()], BATCH_SIZE);
  if (!ballots.length) return;
  const settings = serverConfig().mail;
  await queueOwedReceipts(
    db,
    await Promise.all(
      ballots.map(async (ballot) => {
        const survey = surveys.get(ballot.project_id);
        return { ballotId: ballot.id, message: survey && (await receiptMessage(survey, ballot, settings)) };
      }),
    ),
  );
}

/**
 * Sends every receipt owed or queued, oldest first, a batch at a time (queued from the ballots'
 * rows in one transaction, claimed in one statement, recorded in one transaction); stops for a
 * while when the mail server cannot be reached.
 */
async function drain(): Promise<void> {
  const { db } = await database();
  for (;;) {
    if (Date.now() < pausedUntil) return;
    await queueOwed(db);
    await requeueAbandoned(db, 'receipt', abandoned);
    const rows = await claimQueued(db, 'receipt', BATCH_SIZE, THIS_PROCESS.owner);
    if (!rows.length) return;
    const results = await Promise.all(rows.map(sendReceipt));
    await settleMessages(
      db,
      results.map((result) => result.settlement),
    );
    if (results.some((result) => !result.reached)) {
      // No address or link in the log: only how many wait.
      console.warn(`mail outbox: the mail server cannot be reached; ${rows.length} receipts stay queued and are tried again in a minute.`);
      pausedUntil = Date.now() + 60_000;
      return;
    }
    await yieldToBallots();
  }
}

/** True for a receipt's claimant known to be gone: an earlier start of this process, or a process of this machine that has ended. */
const abandoned = (owner: string) => {
  const holder = claimantOf(owner);
  return holder !== undefined && holderGone(holder);
};

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
 * Starts the survey API's outbox once: queued receipts are sent now and every few seconds. A
 * receipt another process left `sending` goes back to the queue once, when that process is seen
 * gone or its claim has run out (a second receipt is better than none), never at every start.
 */
export function startOutbox(): void {
  if (started) return;
  started = true;
  // Where a survey sends receipts, the transport (nodemailer, loaded with it) and the receipt's
  // template are made now, at the start, not by the first receipt while the first ballots come in.
  // A template that cannot be read now is told by the receipt that needs it, as before.
  try {
    const mailing = allServerSurveys().filter((survey) => survey.config.mail.receipt);
    if (mailing.length) mailTransport();
    for (const survey of mailing) for (const lang of survey.config.languages) receiptOf(survey, lang);
  } catch {}
  nudgeOutbox();
  setInterval(nudgeOutbox, POLL_MS).unref();
}
