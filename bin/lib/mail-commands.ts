// `send`, `deliveries` and `bounces`: the invitations and reminders Peervote mails itself, and every message's fate.
import type { Context } from './results-commands.ts';
import { who } from './results-commands.ts';
import { baseUrl } from './invite-command.ts';
import { openOutput } from './output.ts';
import { readServerConfig } from '../../src/server/config.ts';
import { signalsSecret } from '../../src/server/intake/signals-salt.ts';
import { appendAudit } from '../../src/server/db/audit.repository.ts';
import { createMailTransport } from '../../src/mail/transport.ts';
import { transportThread } from '../../src/results/delivery/transport-thread.ts';
import { recipientKey } from '../../src/server/mail/mail.repository.ts';
import { campaignMessages, rosterRecipients, sendCampaign, type Campaign, type SendSummary } from '../../src/results/delivery/send.ts';
import { deliveryRows } from '../../src/results/delivery/deliveries.ts';
import { importReports } from '../../src/results/delivery/bounces.ts';
import { unsubscribeToken } from '../../src/results/delivery/delivery.repository.ts';
import { csvLine } from '../../src/results/export/csv.ts';
import { OperatorError } from '../../src/results/operator.ts';
import { quoted } from '../../src/survey/errors.ts';

const text = (value: string | boolean | undefined) => (typeof value === 'string' ? value : undefined);

/** A whole-number option, or undefined when not given; `min` is the least it may be. */
function count(options: Context['options'], name: string, min: number): number | undefined {
  const raw = text(options[name]);
  if (raw === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) < min) throw new OperatorError(`--${name} must be a number of at least ${min}, got ${quoted(raw)}.`);
  return Number(raw);
}

const CAMPAIGNS: Record<string, Campaign> = { invitations: 'invitation', reminders: 'reminder' };

const skippedText = (skipped: Record<string, number>) =>
  Object.entries(skipped)
    .map(([reason, n]) => `${n} ${reason}`)
    .join(', ') || 'none';

/** The summary line of a run, for standard error and the audit trail. */
function summaryLine(summary: SendSummary): string {
  const verb = summary.dryRun ? 'would send' : 'sent';
  const done = summary.dryRun ? summary.eligible : summary.sent;
  const interrupted = summary.interrupted ? `; ${summary.interrupted} left in flight by an earlier run marked unknown` : '';
  return `send ${summary.campaign}s: ${verb} ${done}, bounced ${summary.bounced}, failed ${summary.failed}; skipped: ${skippedText(summary.skipped)}${interrupted}.`;
}

/**
 * `send <slug> invitations|reminders`: mails the campaign to the roster through SMTP_URL (or the
 * file transport), recording every message before it leaves; `--preview EMAIL` prints one person's
 * message and sends nothing; `--dry-run` says who would get one.
 */
export async function sendCommand({ db, survey, prepopulation, options, rest }: Context): Promise<void> {
  const campaign = CAMPAIGNS[rest[0] ?? ''];
  if (!campaign) throw new OperatorError(`send what? Usage: npm run results -- send ${survey.slug} invitations|reminders [options]`);
  if (!Object.keys(prepopulation).length)
    throw new OperatorError(`${survey.slug} has no one to mail; make the personal links first: npm run results -- invite ${survey.slug} --roster people.csv`);
  const url = baseUrl(options);
  const config = readServerConfig();
  const secret = signalsSecret(config);
  const preview = text(options.preview);
  if (preview !== undefined) {
    const recipient = rosterRecipients(survey, prepopulation).recipients.find((one) => one.key === recipientKey(preview));
    if (!recipient) throw new OperatorError(`--preview: no one on ${survey.slug}'s roster has that address.`);
    const { mail, unsubscribeUrl } = campaignMessages(survey, campaign, url)(recipient, unsubscribeToken(secret, survey.config.project_id, recipient.key));
    const output = openOutput(undefined);
    await output.write(
      `To: ${recipient.address}\nSubject: ${mail.subject}\nList-Unsubscribe: <${unsubscribeUrl}>\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\n\n${mail.text}\n--- HTML ---\n${mail.html}`,
    );
    await output.close();
    process.stderr.write(`send: a preview of the ${campaign} to one person; nothing was sent.\n`);
    return;
  }
  // Over SMTP, the transport runs in a thread of its own, beside the run's own work.
  const transport = config.mail.smtpUrl ? transportThread(config.mail) : createMailTransport(config.mail);
  const options_ = {
    campaign,
    baseUrl: url,
    dryRun: Boolean(options['dry-run']),
    rate: count(options, 'rate', 1),
    limit: count(options, 'limit', 0),
    only: text(options.only),
    minGapDays: count(options, 'min-gap', 0),
    resendUnknown: Boolean(options['resend-unknown']),
    progress: (line: string) => process.stderr.write(`${line}\n`),
  };
  process.stderr.write(`send ${campaign}s: ${options_.dryRun ? 'dry run, nothing is sent' : `through ${transport.description}`}.\n`);
  let summary: SendSummary | undefined;
  try {
    summary = await sendCampaign(db, survey, prepopulation, transport, config.mail, secret, options_);
  } catch (error) {
    summary = (error as { summary?: SendSummary }).summary;
    throw error;
  } finally {
    transport.close();
    if (summary && !summary.dryRun) {
      await appendAudit(db, {
        projectId: survey.config.project_id,
        actor: who(options),
        action: 'send',
        subject: `${campaign}s`,
        details: {
          sent: summary.sent,
          bounced: summary.bounced,
          failed: summary.failed,
          skipped: summary.skipped,
          interrupted: summary.interrupted,
          transport: transport.description,
        },
      });
    }
  }
  process.stderr.write(`${summaryLine(summary)}\n`);
}

/** `deliveries <slug>`: one CSV line per invited person: email,status,invitations,reminders,last_sent_at,detail. */
export async function deliveriesCommand({ db, survey, prepopulation, options }: Context): Promise<void> {
  const rows = await deliveryRows(db, survey, prepopulation);
  const output = openOutput(text(options.out));
  await output.write(csvLine(['email', 'status', 'invitations', 'reminders', 'last_sent_at', 'detail']));
  for (const row of rows) await output.write(csvLine([row.email, row.status, row.invitations, row.reminders, row.lastSentAt, row.detail]));
  await output.close();
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.status, (counts.get(row.status) ?? 0) + 1);
  process.stderr.write(`deliveries: ${rows.length} people; ${[...counts].map(([status, n]) => `${n} ${status}`).join(', ') || 'none'}.\n`);
}

/** `bounces <slug> FILE…`: imports DSNs and abuse reports; what matches no message is listed, and the command still succeeds. */
export async function bouncesCommand({ db, survey, options, rest }: Context): Promise<void> {
  if (!rest.length) throw new OperatorError(`Which reports? Usage: npm run results -- bounces ${survey.slug} FILE… (.eml files or an mbox)`);
  const secret = signalsSecret(readServerConfig());
  let summary: Awaited<ReturnType<typeof importReports>>;
  try {
    summary = await importReports(db, survey.config.project_id, secret, rest);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES') throw new OperatorError(`Cannot read ${(error as NodeJS.ErrnoException).path}: ${code}.`);
    throw error;
  }
  await appendAudit(db, {
    projectId: survey.config.project_id,
    actor: who(options),
    action: 'bounces',
    details: {
      files: rest.length,
      reports: summary.reports,
      bounced: summary.bounced,
      complained: summary.complained,
      delayed: summary.delayed,
      unmatched: summary.unmatched.length,
    },
  });
  process.stderr.write(
    `bounces: ${summary.reports} reports; ${summary.bounced} bounced, ${summary.complained} complained, ${summary.delayed} delayed (noted), ${summary.ignored} changed nothing, ${summary.unmatched.length} matched no message.\n`,
  );
  for (const one of summary.unmatched) process.stderr.write(`  unmatched: ${one.file} ${one.messageId}\n`);
}
