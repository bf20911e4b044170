import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sql, type CompiledQuery, type Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { PersonValues } from '../../survey/config/config.struct.ts';
import type { LoadedSurvey } from '../../survey/config/loader.ts';
import { rosterAddress } from '../../survey/people/voter.ts';
import { closesInWords, loadMailTemplate } from '../../survey/mail/mail-templates.ts';
import { compileMail, type RenderedMail } from '../../mail/render.ts';
import { newMessageId, senderOf, type MailOutcome, type MailSettings, type MailTransport } from '../../mail/transport.ts';
import type { NewMailMessage } from '../../server/db/tables/mail-messages.table.ts';
import { markInterrupted, recipientKey, settleMessage } from '../../server/mail/mail.repository.ts';
import { endSendRun, ensureRecipients, mailHistories, renewSendRun, sendRecords, takeSendRun, unsubscribeToken, type SendFate } from './delivery.repository.ts';
import { liveConsoleRun } from '../../server/mail/mail-runs.repository.ts';
import { sqliteWriter } from '../../server/db/sqlite-writer.ts';
import { sqliteFile } from '../../server/db/database.ts';
import { deliveryOf } from './delivery-status.ts';
import { greetingName, personalLink } from '../voters/roster.ts';
import { votedSecrets } from '../voters/voters.repository.ts';
import { OperatorError } from '../operator.ts';
import { quoted } from '../../survey/errors.ts';
import { localeOf, m, type Locale } from '../../i18n/messages.ts';
import { localizeSurvey } from '../../survey/config/translations.ts';

/** What `send` mails: the first message to each person, or a reminder to those who have not voted. */
export type Campaign = 'invitation' | 'reminder';

/** How one run of `send` goes. */
export interface SendOptions {
  campaign: Campaign;
  baseUrl: string;
  dryRun?: boolean;
  /** Messages a minute; unset sends as fast as the pool goes. */
  rate?: number;
  limit?: number;
  /** Only this address (as compared: trimmed, lower case). */
  only?: string;
  /** Days since the last message to a person before a reminder may go (reminders only). */
  minGapDays?: number;
  /** Send again to people whose message is `unknown` (it was in flight when a run was killed). */
  resendUnknown?: boolean;
  now?: () => Date;
  /** A progress line on standard error: counts, never addresses. */
  progress?: (line: string) => void;
  /** The console's send run (mail_runs) this is: its messages carry its id, and no other console run may be running. */
  runId?: string;
  /** Told who is chosen and who is skipped, once the run has planned and before any message leaves. */
  onPlan?: (summary: SendSummary) => Promise<void>;
  /** Asked before each message: true stops the run there (its driver has lost its claim on it). */
  stop?: () => boolean;
}

/** What a run did: sent, bounced (5xx), failed (4xx to the last try), skipped by reason, and the `sending` left from a killed run marked unknown. */
export interface SendSummary {
  campaign: Campaign;
  eligible: number;
  sent: number;
  bounced: number;
  failed: number;
  skipped: Record<string, number>;
  interrupted: number;
  dryRun: boolean;
}

/** One person to mail: their secret, values, address and its key. */
interface Recipient {
  secret: string;
  person: PersonValues;
  address: string;
  key: string;
}

/** The people of the roster with an address, each address once (the first person on file who has it). */
export function rosterRecipients(survey: LoadedSurvey, prepopulation: Record<string, PersonValues>): { recipients: Recipient[]; noAddress: number } {
  const seen = new Set<string>();
  const recipients: Recipient[] = [];
  let noAddress = 0;
  for (const [secret, person] of Object.entries(prepopulation)) {
    const address = rosterAddress(person, survey.config);
    if (!address) {
      noAddress++;
      continue;
    }
    const key = recipientKey(address);
    if (seen.has(key)) continue;
    seen.add(key);
    recipients.push({ secret, person, address, key });
  }
  return { recipients, noAddress };
}

/** The footer every invitation and reminder closes with, in a language: the unsubscribe link. */
const footer = (locale: Locale) => m.mail_footer({ title: '{{survey_title}}', url: '{{unsubscribe_url}}' }, { locale });

/**
 * The language a person is written to in: the roster's `language` column (a survey keeps it with
 * `roster_columns: [language]`) when the survey offers that language, else the survey's default.
 */
function personLanguage(survey: LoadedSurvey, person: PersonValues): string {
  // Matched without regard to case (`ES`, `pt-br`), and written as the survey writes it (`pt-BR`).
  const asked = typeof person.language === 'string' ? person.language.trim().toLowerCase() : '';
  return survey.config.languages.find((lang) => lang.toLowerCase() === asked) ?? survey.config.languages[0]!;
}

/**
 * The campaign's template compiled once per language: each person's message (text, HTML, subject)
 * and the unsubscribe link it carries, for sending and for `--preview`. A person whose roster
 * `language` is one the survey offers gets the survey's translation of the template
 * (`translations.<lang>.mail.<campaign>`, else the default's words), the product's footer and the
 * closing date in that language, and their personal link under `/{lang}/`.
 */
export function campaignMessages(survey: LoadedSurvey, campaign: Campaign, baseUrl: string) {
  const template = loadMailTemplate(survey.dir, campaign);
  const renderers = new Map<string, ReturnType<typeof compileMail>>();
  const rendererOf = (lang: string) => {
    if (!renderers.has(lang)) {
      const own = survey.config.translations?.[lang]?.mail?.[campaign];
      const translated =
        lang === survey.config.languages[0] ? template : { ...template, subject: own?.subject ?? template.subject, body: own?.body ?? template.body };
      renderers.set(lang, compileMail(translated, footer(localeOf(lang)), lang));
    }
    return renderers.get(lang)!;
  };
  return (recipient: Recipient, token: string): { mail: RenderedMail; unsubscribeUrl: string } => {
    const lang = personLanguage(survey, recipient.person);
    const config = localizeSurvey(survey.config, lang);
    // A person written to in a further language gets the unsubscribe pages in it too.
    const unsubscribeUrl = `${baseUrl.replace(/\/+$/, '')}/api/unsubscribe/${token}${lang === survey.config.languages[0] ? '' : `?lang=${lang}`}`;
    const link = personalLink(baseUrl, survey.slug, recipient.secret);
    const mail = rendererOf(lang)({
      survey_title: config.survey_title ?? survey.slug,
      closes: closesInWords(survey.config.expiration_date, lang === survey.config.languages[0] ? 'en-US' : lang, survey.config.time_zone),
      receipt: '',
      name: greetingName(recipient.person, survey.config),
      url: lang === survey.config.languages[0] ? link : link.replace(`/${survey.slug}/`, `/${lang}/${survey.slug}/`),
      unsubscribe_url: unsubscribeUrl,
    });
    return { mail, unsubscribeUrl };
  };
}

const DAY_MS = 86_400_000;

/**
 * Decides who gets this campaign's message and why the others do not. Invitations: everyone on
 * the roster with no invitation that went (or may have), and not stopped by an unsubscribe, bounce
 * or complaint. Reminders: people with no ballot whose invitation went or may have, no message to
 * them within the gap, and nothing stopping their mail.
 */
async function plan(db: Kysely<Database>, survey: LoadedSurvey, recipients: Recipient[], options: SendOptions, now: Date) {
  const histories = await mailHistories(db, survey.config.project_id);
  const voted = options.campaign === 'reminder' ? await votedSecrets(db, survey.config.project_id) : new Set<string | null>();
  const skipped: Record<string, number> = {};
  const skip = (reason: string) => (skipped[reason] = (skipped[reason] ?? 0) + 1);
  const chosen: Recipient[] = [];
  const gapMs = (options.minGapDays ?? 3) * DAY_MS;
  for (const recipient of recipients) {
    const delivery = deliveryOf(histories.get(recipient.key));
    if (delivery.status === 'unsubscribed' || delivery.status === 'bounced' || delivery.status === 'complained') {
      skip(delivery.status);
      continue;
    }
    if (options.campaign === 'invitation') {
      if (delivery.invitation === 'sent') skip('already_invited');
      else if (delivery.invitation === 'unknown' && !options.resendUnknown) skip('unknown (use --resend-unknown)');
      else chosen.push(recipient);
      continue;
    }
    if (voted.has(recipient.secret)) skip('voted');
    else if (delivery.invitation === 'none') skip('not_invited');
    else if (delivery.invitation === 'failed') skip('invitation_failed');
    else if (delivery.lastSentAt && now.getTime() - Date.parse(delivery.lastSentAt) < gapMs) skip('too_soon (--min-gap)');
    else chosen.push(recipient);
  }
  return { chosen, skipped };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Writes what the pool's connections hand in (a fate, the next message's row, or both) with
 * sendRecords, one transaction at a time, each holding all that was handed in while the one before
 * was written; each hand-in resolves once its transaction is committed. On an SQLite file a
 * connection of the run's own writes them (sqliteWriter), in this thread: the messages are built
 * and sent by a thread of their own (transportThread), so a commit here holds up no connection
 * but its own, and costs less than a round trip to a writer thread.
 */
function sendRecorder(db: Kysely<Database>, writer: RecordWriter): (fate: SendFate | undefined, row?: NewMailMessage) => Promise<void> {
  let pending: Array<{ fate?: SendFate; row?: NewMailMessage; done: () => void; failed: (error: unknown) => void }> = [];
  let writing = false;
  async function write(): Promise<void> {
    while (pending.length) {
      const batch = pending;
      pending = [];
      const fates = batch.flatMap((one) => (one.fate ? [one.fate] : []));
      const rows = batch.flatMap((one) => (one.row ? [one.row] : []));
      try {
        await writer.write(sendRecords(db, fates, rows));
        for (const one of batch) one.done();
      } catch (error) {
        for (const one of batch) one.failed(error);
      }
    }
    writing = false;
  }
  return (fate, row) =>
    new Promise<void>((done, failed) => {
      pending.push({ fate, row, done, failed });
      if (!writing) {
        writing = true;
        setImmediate(write);
      }
    });
}

/** Where a run's records are written: statements run in one transaction at a time. */
interface RecordWriter {
  write(statements: readonly CompiledQuery[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * A connection of its own for a run's records when the database is an SQLite file, with the run's
 * connection's synchronous setting; on PostgreSQL (or SQLite in memory), the run's own connection.
 */
async function recordWriter(db: Kysely<Database>): Promise<RecordWriter> {
  const file = await sqliteFile(db);
  if (!file)
    return {
      write: (statements) =>
        db.transaction().execute(async (trx) => {
          for (const statement of statements) await trx.executeQuery(statement);
        }),
      close: async () => undefined,
    };
  const { rows } = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(db);
  return sqliteWriter({ file, synchronous: Number(rows[0]?.synchronous) >= 2 ? 'FULL' : 'NORMAL' });
}

/**
 * Sends one campaign to the survey's roster. Each message's row (its Message-ID, status `sending`)
 * is written before the message is handed to the transport, in one transaction with the answer to
 * the message its connection sent before, so a run killed at any moment leaves at most the pool's
 * size of messages `unknown` for the next run, which sends them again only with --resend-unknown.
 * A 5xx marks the person bounced; a 4xx is tried again (five tries), then failed; a server that
 * cannot be reached stops the run with an OperatorError, the message in hand forgotten so that
 * everyone keeps the state they had. One run at a time mails a survey: a run holds the survey's
 * sending (takeSendRun) before it looks at anyone's state, and another that starts meanwhile stops
 * at once with an OperatorError, having changed nothing.
 */
export async function sendCampaign(
  db: Kysely<Database>,
  survey: LoadedSurvey,
  prepopulation: Record<string, PersonValues>,
  transport: MailTransport,
  settings: Pick<MailSettings, 'from' | 'poolSize' | 'retryWaitsMs'>,
  secret: string,
  options: SendOptions,
): Promise<SendSummary> {
  const now = options.now ?? (() => new Date());
  const projectId = survey.config.project_id;
  if (options.campaign === 'reminder' && survey.config.expiration_date && Date.parse(survey.config.expiration_date) <= now().getTime()) {
    throw new OperatorError(`${survey.slug} closed on ${survey.config.expiration_date}: reminders go only while the survey is open.`);
  }
  const run = (hold?: Hold) => sendRun({ db, survey, prepopulation, transport, settings, secret, options }, hold);
  // A dry run changes nothing: it needs no hold, and may look while a run sends.
  if (options.dryRun) return run();
  const runner = { runId: randomUUID(), host: hostname(), pid: process.pid, campaign: options.campaign };
  // A run started in the console holds its survey for as long as a process of the API drives it, between its messages too.
  const consoleRun = await liveConsoleRun(db, projectId, options.runId);
  if (consoleRun)
    throw new SendBusyError(
      `A send run of ${consoleRun.campaign}s for ${survey.slug}, started in the console by ${consoleRun.started_by} at ${consoleRun.started_at}, is running: wait for it to end (its page shows how far it is).`,
    );
  const holder = await takeSendRun(db, projectId, runner);
  if (holder) {
    throw new SendBusyError(
      `Another send (${holder.campaign}s) for ${survey.slug} has been running since ${holder.started_at}, as process ${holder.pid} on ${quoted(holder.host)}: wait for it to end. A run stopped without ending is let go once its process is gone, or after a minute of silence.`,
    );
  }
  const hold: Hold = { lost: false };
  const renewal = setInterval(() => {
    renewSendRun(db, projectId, runner.runId).then(
      (still) => (hold.lost ||= !still),
      () => undefined,
    );
  }, RENEW_EVERY_MS);
  renewal.unref();
  try {
    return await run(hold);
  } finally {
    clearInterval(renewal);
    await endSendRun(db, projectId, runner.runId);
  }
}

/** Why a run did not start: another run holds the survey (a `send` on the command line or a run started in the console). */
export class SendBusyError extends OperatorError {}

/** How often a run says it is alive: well within SEND_RUN_SILENCE_MS. */
const RENEW_EVERY_MS = 10_000;

/** A run's hold on its survey's sending: `lost` once another run has taken it. */
interface Hold {
  lost: boolean;
}

/** What a run of sendCampaign works with: its arguments. */
interface SendJob {
  db: Kysely<Database>;
  survey: LoadedSurvey;
  prepopulation: Record<string, PersonValues>;
  transport: MailTransport;
  settings: Pick<MailSettings, 'from' | 'poolSize' | 'retryWaitsMs'>;
  secret: string;
  options: SendOptions;
}

/** One run of sendCampaign, holding the survey's sending (`hold`) unless it is a dry run. */
async function sendRun({ db, survey, prepopulation, transport, settings, secret, options }: SendJob, hold: Hold | undefined): Promise<SendSummary> {
  const now = options.now ?? (() => new Date());
  const projectId = survey.config.project_id;
  const interrupted = options.dryRun ? 0 : await markInterrupted(db, ['invitation', 'reminder'], projectId);
  const roster = rosterRecipients(survey, prepopulation);
  let recipients = roster.recipients;
  if (options.only !== undefined) {
    const only = recipientKey(options.only);
    recipients = recipients.filter((recipient) => recipient.key === only);
    if (!recipients.length) throw new OperatorError(`--only: no one on ${survey.slug}'s roster has that address.`);
  }
  const { chosen, skipped } = await plan(db, survey, recipients, options, now());
  if (roster.noAddress && options.only === undefined) skipped.no_address = roster.noAddress;
  const queue = options.limit !== undefined ? chosen.slice(0, options.limit) : chosen;
  if (queue.length < chosen.length) skipped['over --limit'] = chosen.length - queue.length;
  const summary: SendSummary = {
    campaign: options.campaign,
    eligible: queue.length,
    sent: 0,
    bounced: 0,
    failed: 0,
    skipped,
    interrupted,
    dryRun: Boolean(options.dryRun),
  };
  if (options.dryRun) return summary;
  await options.onPlan?.(summary);
  if (!queue.length) return summary;

  // Each person's token is an HMAC: made once, for their row and for their messages' links.
  const people = queue.map((recipient) => ({ ...recipient, token: unsubscribeToken(secret, projectId, recipient.key) }));
  await ensureRecipients(db, projectId, people);
  const messageOf = campaignMessages(survey, options.campaign, options.baseUrl);
  const from = senderOf(survey, settings);
  const delays = settings.retryWaitsMs;
  const interval = options.rate ? 60_000 / options.rate : 0;
  let nextSlot = Date.now();
  let stopped: string | undefined;
  let next = 0;
  const progress = options.progress;
  const report = () =>
    progress?.(
      `send ${options.campaign}s: ${summary.sent + summary.bounced + summary.failed} of ${queue.length} done (${summary.sent} sent, ${summary.bounced} bounced, ${summary.failed} failed)`,
    );
  const ticker = progress ? setInterval(report, 2000) : undefined;
  ticker?.unref();

  const writer = await recordWriter(db);
  const record = sendRecorder(db, writer);

  /** Hands one message to the transport (its row already written), tries a 4xx again, and says what became of it. */
  async function deliver(recipient: Recipient, messageId: string, mail: RenderedMail, unsubscribeUrl: string): Promise<SendFate> {
    let outcome: MailOutcome;
    for (let attempt = 1; ; attempt++) {
      outcome = await transport.send(survey, {
        to: recipient.address,
        ...mail,
        messageId,
        headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      });
      if (outcome.status !== 'rejected' || outcome.permanent || attempt > delays.length || stopped) break;
      await settleMessage(db, messageId, { status: 'sending', detail: `${outcome.code} ${outcome.response}`, attempts: attempt + 1 });
      await wait(delays[attempt - 1]);
    }
    if (outcome.status === 'sent') {
      summary.sent++;
      return { messageId, status: 'sent', detail: outcome.response.slice(0, 200), sentAt: new Date().toISOString() };
    }
    if (outcome.status === 'rejected') {
      const detail = `${outcome.code} ${outcome.response}`;
      if (!outcome.permanent) {
        summary.failed++;
        return { messageId, status: 'failed', detail };
      }
      summary.bounced++;
      return { messageId, status: 'bounced', detail, projectId, emailKey: recipient.key, at: new Date().toISOString() };
    }
    stopped ??= outcome.reason;
    return { messageId, status: 'forgotten' };
  }

  /**
   * One connection's share: each message's row is written with the fate of the connection's last
   * message, in one transaction, so a connection never has more than one message `sending`.
   */
  async function worker(): Promise<void> {
    let fate: SendFate | undefined;
    // The next person's message is rendered while the one before is in flight, so that an answer
    // is followed at once by the next row and message. Nothing of it is written before its turn: a
    // run that stops leaves a prepared person as they were.
    const prepare = () => {
      if (stopped || hold?.lost || options.stop?.() || next >= people.length) return undefined;
      const recipient = people[next++];
      return { recipient, ...messageOf(recipient, recipient.token), messageId: newMessageId(from) };
    };
    let prepared = prepare();
    while (prepared && !stopped && !hold?.lost && !options.stop?.()) {
      const { recipient, mail, unsubscribeUrl, messageId } = prepared;
      if (interval) {
        // The last answer is recorded before a wait for the rate: a run killed while it waits leaves it known.
        if (fate) await record(fate);
        fate = undefined;
        const slot = nextSlot;
        nextSlot = Math.max(nextSlot, Date.now()) + interval;
        if (slot > Date.now()) await wait(slot - Date.now());
        if (stopped) break;
      }
      await record(fate, {
        message_id: messageId,
        project_id: projectId,
        kind: options.campaign,
        email_key: recipient.key,
        recipient: recipient.address,
        status: 'sending',
        attempts: 1,
        created_at: new Date().toISOString(),
        sent_at: null,
        detail: null,
        payload: null,
        run_id: options.runId ?? null,
      });
      const delivering = deliver(recipient, messageId, mail, unsubscribeUrl);
      prepared = prepare();
      fate = await delivering;
    }
    if (fate) await record(fate);
  }
  try {
    await Promise.all(Array.from({ length: Math.max(1, settings.poolSize) }, worker));
  } finally {
    if (ticker) clearInterval(ticker);
    await writer.close();
  }
  // A run that stops early says why, and carries what it did so far (the audit trail records it).
  const why = stopped
    ? `Cannot reach the mail server (${transport.description}): ${stopped}.`
    : hold?.lost
      ? `Another send run took over ${survey.slug} after this one had been silent for a minute.`
      : options.stop?.()
        ? `This run was handed to another process of the API.`
        : undefined;
  if (why) {
    const error = new OperatorError(`${why} ${summary.sent} sent before it stopped; the others keep their state.`);
    (error as OperatorError & { summary?: SendSummary }).summary = summary;
    throw error;
  }
  report();
  return summary;
}
