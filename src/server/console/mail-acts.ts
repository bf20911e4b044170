import type { APIContext } from 'astro';
import { database } from '../db/database.ts';
import { json } from '../http.ts';
import { appendAudit } from '../db/audit.repository.ts';
import { serverConfig } from '../config.ts';
import { signalsSecret } from '../intake/signals-salt.ts';
import { surveyRun } from '../mail/mail-runs.repository.ts';
import { importReportTexts, looksLikeMail } from '../../results/delivery/bounces.ts';
import { may } from '../../survey/operators/operator-rights.ts';
import { isExpired } from '../../survey/people/link.ts';
import { callText, consoleCall, UPLOAD_LIMIT } from './console-guard.ts';
import { done, refusal } from './console-replies.ts';
import { signedIn } from './console-acts.ts';
import { signedBy } from './sessions.ts';
import { surveyOfOperator } from './refused-page.ts';
import { campaignOf, mailPath, RATE_MAX, runView, siteAddress } from './mail-page.ts';
import { startMailRun } from './mail-runs.ts';

// The mail page's acts, for a manager and up: "Send invitations" and "Send reminders" start a send
// run in the server (mail-runs.ts), a bounce report uploaded is read as `results bounces` reads
// one, and a run's progress is read as JSON for the page's script. Each act is signed in the audit
// trail with the operator's name.

/** The refusal of an operator below a manager. */
const forbidden = (request: Request) =>
  refusal(request, 403, 'forbidden', 'Only a manager or an owner of this survey may mail its roster or read what came back.');

/** The survey of a call, and the operator and their role, or the refusal: 404 for a survey they have no role on. */
function surveyOfCall(context: APIContext, slug: string) {
  const call = consoleCall(context.request);
  const { session, operator } = signedIn(call);
  const found = surveyOfOperator(operator, slug);
  if (!found) return { refused: refusal(context.request, 404, 'unknown_survey', 'There is no such survey for you here.') } as const;
  return { call, session, operator, ...found, refused: undefined };
}

/**
 * POST /api/console/surveys/{slug}/mail/send: `campaign` (invitations or reminders) and `rate`
 * (messages a minute). Starts a send run in the server for a manager and up, audited with the
 * operator's name: 202 with the run, or a 303 to the mail page for a form. 403 below a manager,
 * 400 for a campaign or rate that will not do, 409 while another run holds the survey (from the
 * console or the command line), for reminders after the close, or with no one to mail.
 */
export async function startSend(context: APIContext, slug: string): Promise<Response> {
  const { request } = context;
  const found = surveyOfCall(context, slug);
  if (found.refused) return found.refused;
  const { call, session, operator, survey, role } = found;
  const campaign = campaignOf(callText(call, 'campaign'));
  if (!campaign) return refusal(request, 400, 'invalid_campaign', 'Say what to send: invitations or reminders.');
  if (!may(operator, campaign === 'invitation' ? 'send-invitations' : 'send-reminders', survey.slug)) return forbidden(request);
  const rateText = (callText(call, 'rate') ?? '').trim();
  const rate = Number(rateText);
  if (!/^\d+$/.test(rateText) || rate < 1 || rate > RATE_MAX) {
    const message = `Rate must be a whole number of messages a minute, from 1 to ${RATE_MAX}.`;
    return refusal(request, 400, 'invalid_rate', message, {}, [{ path: 'rate', message }]);
  }
  if (campaign === 'reminder' && isExpired(survey.config, call.now.getTime()))
    return refusal(request, 409, 'survey_closed', `${survey.slug} has closed: reminders go only while the survey is open.`);
  const { db } = await database();
  const people = await db
    .selectFrom('people')
    .select('email_key')
    .where('project_id', '=', survey.config.project_id)
    .where('email_key', '!=', '')
    .limit(1)
    .executeTakeFirst();
  if (!people) return refusal(request, 409, 'no_roster', `${survey.slug} has no one with an address to mail: make the personal links first (results invite).`);
  const started = await startMailRun(db, survey, {
    campaign,
    rate,
    baseUrl: siteAddress(call.address.origin),
    signer: { ...signedBy(operator, session, role), actorEmail: operator.key },
    now: call.now,
  });
  if (started.outcome === 'busy') return refusal(request, 409, 'send_running', started.message);
  return done(request, 202, { run: started.run.id, campaign, rate }, `${mailPath(survey.slug)}?run=${started.run.id}#run`);
}

/** GET /api/console/surveys/{slug}/mail/runs/{id}: a run and how far it is, for the page's script. */
export async function sendProgress(context: APIContext, slug: string, id: string): Promise<Response> {
  const found = surveyOfCall(context, slug);
  if (found.refused) return found.refused;
  if (!may(found.operator, 'send-invitations', found.survey.slug)) return forbidden(context.request);
  const { db } = await database();
  const run = /^[0-9a-f-]{36}$/.test(id) ? await surveyRun(db, found.survey.config.project_id, id) : undefined;
  if (!run) return refusal(context.request, 404, 'unknown_run', 'This survey has no such send run.');
  return json(200, await runView(db, run));
}

/**
 * POST /api/console/surveys/{slug}/mail/bounces: a multipart form whose `report` files are
 * `.eml` messages or mboxes of delivery reports and complaints, read as `results bounces` reads
 * them, for a manager and up; audited with the operator's name. 400 for no file, an empty one,
 * or one that is not mail; 413 past the upload limit (the gate's).
 */
export async function importBounces(context: APIContext, slug: string): Promise<Response> {
  const { request } = context;
  const found = surveyOfCall(context, slug);
  if (found.refused) return found.refused;
  const { call, session, operator, survey, role } = found;
  if (!may(operator, 'import-bounces', survey.slug)) return forbidden(request);
  const files = [...call.fields.entries()].flatMap(([name, value]) => (name === 'report' && value instanceof File && value.size > 0 ? [value] : []));
  const bad = (error: string, message: string) => refusal(request, 400, error, message, {}, [{ path: 'report', message }]);
  if (!files.length) return bad('no_report', 'Choose a report to upload: an .eml file or an mbox of bounces and complaints.');
  const sources: Array<{ name: string; text: string }> = [];
  for (const file of files) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const name = file.name.replace(/[^\w .@+-]/g, '_').slice(0, 120) || 'report';
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      text = new TextDecoder('latin1').decode(bytes);
    }
    if (text.includes('\0') || !looksLikeMail(text))
      return bad('not_mail', `${name} is not mail: upload an .eml message or an mbox, as your mail program saves them.`);
    sources.push({ name, text });
  }
  const { db } = await database();
  const summary = await importReportTexts(db, survey.config.project_id, signalsSecret(serverConfig()), sources, call.now);
  await appendAudit(db, {
    projectId: survey.config.project_id,
    ...signedBy(operator, session, role),
    action: 'bounces',
    details: {
      files: sources.length,
      reports: summary.reports,
      bounced: summary.bounced,
      complained: summary.complained,
      delayed: summary.delayed,
      unmatched: summary.unmatched.length,
    },
    now: call.now,
  });
  const numbers = {
    reports: summary.reports,
    bounced: summary.bounced,
    complained: summary.complained,
    delayed: summary.delayed,
    unmatched: summary.unmatched.length,
  };
  const query = new URLSearchParams({ imported: '1', ...Object.fromEntries(Object.entries(numbers).map(([name, n]) => [name, String(n)])) });
  return done(request, 200, { ...numbers, limit: UPLOAD_LIMIT }, `${mailPath(survey.slug)}?${query}#bounces`);
}
