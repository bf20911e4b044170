import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { MailRunRow } from '../db/tables/mail-runs.table.ts';
import { database } from '../db/database.ts';
import { serverConfig } from '../config.ts';
import { findSurvey, type ServerSurvey } from '../surveys.ts';
import { appendAudit, type ActSigner } from '../db/audit.repository.ts';
import { signalsSecret } from '../intake/signals-salt.ts';
import { peopleKey, peopleOf } from '../people/people.repository.ts';
import { THIS_PROCESS } from '../mail/claimant.ts';
import { endRun, insertRun, planRun, releaseRun, renewRun, runCounts, RUN_LEASE_MS, type NewMailRun } from '../mail/mail-runs.repository.ts';
import { createMailTransport } from '../../mail/transport.ts';
import { liveSendRun } from '../../results/delivery/delivery.repository.ts';
import { SendBusyError, sendCampaign, type Campaign } from '../../results/delivery/send.ts';
import { OperatorError } from '../../results/operator.ts';

// The console's send runs: "Send invitations" and "Send reminders" start one in the server, which
// sends through sendCampaign (the function `send` calls, with its one-run-at-a-time hold and its
// promise never to send one message twice) at the operator's rate, whether or not the page stays
// open. This process drives the runs it started or took over (mail-run-watch.ts finds those a
// process that died left), renewing its claim on each while it sends.

/** How often a driver renews its claim on a run: well within RUN_LEASE_MS. */
const RENEW_MS = RUN_LEASE_MS / 6;

/** The runs this process drives now, by id. */
const driving = new Set<string>();

/** What a start came to: a run, or why none started (another runs, from the console or the command line). */
export type StartOutcome = { outcome: 'started'; run: MailRunRow } | { outcome: 'busy'; message: string };

/**
 * Starts a run of invitations or reminders for a survey, signed by the operator, unless one runs
 * already (started in the console, or a `send` on the command line): written first, claimed by
 * this process, then sent in the background. The start is audited with the operator's name.
 */
export async function startMailRun(
  db: Kysely<Database>,
  survey: ServerSurvey,
  start: { campaign: Campaign; rate: number; baseUrl: string; signer: ActSigner & { actorEmail: string }; now: Date },
): Promise<StartOutcome> {
  const projectId = survey.config.project_id;
  const command = await liveSendRun(db, projectId, THIS_PROCESS.host, start.now);
  if (command)
    return {
      outcome: 'busy',
      message: `A send of ${command.campaign}s from the command line has been running since ${command.started_at}: wait for it to end.`,
    };
  const row: NewMailRun = {
    id: randomUUID(),
    project_id: projectId,
    campaign: start.campaign,
    rate: start.rate,
    base_url: start.baseUrl,
    started_by: start.signer.actor,
    started_by_email: start.signer.actorEmail,
    started_at: start.now.toISOString(),
  };
  const run = await insertRun(db, row, THIS_PROCESS, start.now);
  if (!run) return { outcome: 'busy', message: 'A send run for this survey is running already: wait for it to end (this page shows how far it is).' };
  await appendAudit(db, {
    projectId,
    ...start.signer,
    action: 'send run started',
    subject: `${start.campaign}s`,
    details: { run: run.id, rate: start.rate },
    now: start.now,
  });
  void driveRun(run);
  return { outcome: 'started', run };
}

/** A run's last word from its messages: how many were sent, failed and bounced, and left unknown. */
async function outcomeOf(db: Kysely<Database>, run: MailRunRow): Promise<{ line: string; counts: Record<string, number> }> {
  const counts = await runCounts(db, run.id);
  const n = (status: string) => counts[status] ?? 0;
  const unknown = n('unknown') + n('sending');
  const line = `${n('sent')} sent, ${n('failed')} failed, ${n('bounced') + n('complained')} bounced${unknown ? `, ${unknown} unknown (in flight when a process stopped)` : ''}.`;
  return { line, counts };
}

/**
 * Sends a run this process has claimed, to its end: through sendCampaign with the run's id on
 * every message, its claim renewed meanwhile. A run that ends or cannot go on (no mail server) is
 * ended with its last word and audited in the name of the operator who started it; one that
 * cannot start because another holds the survey just now is let go, for a later look.
 */
export async function driveRun(run: MailRunRow): Promise<void> {
  if (driving.has(run.id)) return;
  driving.add(run.id);
  const { db } = await database();
  let lost = false;
  const renewal = setInterval(() => {
    renewRun(db, run.id, THIS_PROCESS).then(
      (still) => (lost ||= !still),
      () => undefined,
    );
  }, RENEW_MS);
  renewal.unref();
  const survey = findSurvey(run.project_id);
  const config = serverConfig();
  // A transport of the run's own, in this thread: its SMTP pool closes with the run.
  const transport = survey && createMailTransport(config.mail);
  let ended: { state: 'done' | 'stopped'; why?: string } | undefined;
  try {
    if (!survey) return;
    const prepopulation = await peopleOf(db, run.project_id, peopleKey(config));
    await sendCampaign(db, survey, prepopulation, transport!, config.mail, signalsSecret(config), {
      campaign: run.campaign,
      baseUrl: run.base_url,
      rate: run.rate,
      runId: run.id,
      onPlan: (summary) => planRun(db, run.id, summary.eligible, summary.skipped),
      stop: () => lost,
    });
    ended = { state: 'done' };
  } catch (error) {
    if (lost || error instanceof SendBusyError) return;
    if (!(error instanceof OperatorError)) console.warn(`send run ${run.id}: ${(error as Error).message.split('\n')[0]}`);
    ended = { state: 'stopped', why: error instanceof OperatorError ? error.message : 'The run stopped on an error: the server log says why.' };
  } finally {
    clearInterval(renewal);
    transport?.close();
    driving.delete(run.id);
    if (ended) await finish(db, run, ended).catch((error) => console.warn(`send run ${run.id}: ${(error as Error).message.split('\n')[0]}`));
    else if (!lost) await releaseRun(db, run.id, THIS_PROCESS).catch(() => undefined);
  }
}

/** Ends a run with its last word, audited in the name of the operator who started it. */
async function finish(db: Kysely<Database>, run: MailRunRow, ended: { state: 'done' | 'stopped'; why?: string }): Promise<void> {
  const { line, counts } = await outcomeOf(db, run);
  const outcome = ended.why ? `${ended.why} ${line}` : line;
  await endRun(db, run.id, ended.state, outcome, counts);
  await appendAudit(db, {
    projectId: run.project_id,
    actor: run.started_by,
    actorEmail: run.started_by_email,
    via: 'console',
    action: ended.state === 'done' ? 'send run ended' : 'send run stopped',
    subject: `${run.campaign}s`,
    details: { run: run.id, ...counts },
  });
}
