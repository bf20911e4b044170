import type { APIContext } from 'astro';
import { setTimeout as wait } from 'node:timers/promises';
import { database } from '../db/database.ts';
import { appendAudit } from '../db/audit.repository.ts';
import { uuidv7 } from '../ids.ts';
import type { ServerSurvey } from '../surveys.ts';
import { callText, consoleCall, type ConsoleCall } from './console-guard.ts';
import { done, refusal } from './console-replies.ts';
import { checkAgain, signedIn } from './console-acts.ts';
import { ballotsReceived } from './console-views.repository.ts';
import { folderArchive } from './folder-archive.ts';
import { surveyOfOperator } from './refused-page.ts';
import { ABANDONED_MS, closeInWords, isSealed, resultsPath, UNSEAL_WAIT_MS } from './results-page.ts';
import {
  approveUnsealRequest,
  countCsv,
  findUnsealRequest,
  finishCount,
  insertCount,
  insertUnsealRequest,
  recentUnsealRequests,
  runningCount,
} from './results.repository.ts';
import { recentlyReauthenticated, signedBy, type ConsoleSession } from './sessions.ts';
import { ADMIT_REASON_MAX, admitReason, type ReasonProblem } from '../../results/refused.ts';
import { publishedFolder } from '../../results/publish/publish.ts';
import { beforeClose } from '../../results/publish/seal.ts';
import { countInProcess, type CountedInProcess } from '../../results/tally/survey-count.ts';
import { CONSOLE_ACTS, may, type ConsoleAct } from '../../survey/operators/operator-rights.ts';
import type { Operator } from '../../survey/operators/operators.struct.ts';

// The acts of a survey's results page: Count, Ask to unseal, Approve, Publish, and the downloads
// of a count's CSV and of the published folder. The console's side of `results tally` and
// `results publish`, through the same functions (countSurvey, publishResults). A count runs in a
// process of the server's, not in the request: the act waits for it a few seconds, so a small survey's count
// is there at once, and a large one's page says it is counting until it ends.

/** How long an act waits for its count before answering that it goes on in the server. */
const ACT_WAITS_MS = 3000;

/** What the "Reason" box is told when its text will not do, naming the box by its label. */
const REASON_WORDS: Record<ReasonProblem, string> = {
  missing: 'Enter a reason: say why the count should be seen before the close.',
  too_long: `Reason must be ${ADMIT_REASON_MAX} characters or fewer.`,
  nul: 'Reason contains a NUL character (U+0000), which no text may hold: type it again.',
};

/** The survey and operator of an owner's act, or the answer that stops it: 404 for a survey they have no role on, 403 below owner. */
function ownersAct(
  request: Request,
  call: ConsoleCall,
  slug: string,
  act: ConsoleAct,
): { survey: ServerSurvey; operator: Operator; session: ConsoleSession } | Response {
  const { session, operator } = signedIn(call);
  const found = surveyOfOperator(operator, slug);
  if (!found) return refusal(request, 404, 'unknown_survey', 'There is no such survey for you here.');
  if (!may(operator, act, found.survey.slug)) return refusal(request, 403, 'forbidden', 'Only an owner of this survey may see, count or publish its results.');
  return { survey: found.survey, operator, session };
}

/** The refusal of a count of standings while the survey is sealed. */
function sealedRefusal(request: Request, survey: ServerSurvey): Response {
  return refusal(
    request,
    409,
    'sealed',
    `${survey.slug} is sealed until ${closeInWords(survey) ?? 'its close'}: its count is not shown before then. An owner may ask to unseal, and another approve.`,
  );
}

/**
 * Starts a count in the server (a Count, a look, a publication): recorded as running, then done
 * with its summary and CSV, or failed with why. Resolves when it has ended; refuses (undefined)
 * while another count of the survey runs.
 */
async function startCount(
  survey: ServerSurvey,
  by: { operator: Operator; now: Date },
  kind: 'count' | 'look' | 'publish',
  work: () => Promise<CountedInProcess>,
  requestId: string | null = null,
): Promise<{ id: string; ended: Promise<void> } | undefined> {
  const { db } = await database();
  const projectId = survey.config.project_id;
  if (kind !== 'look' && (await runningCount(db, projectId, new Date(by.now.getTime() - ABANDONED_MS).toISOString()))) return undefined;
  const id = uuidv7(by.now.getTime());
  const began = performance.now();
  const at = () => new Date(by.now.getTime() + (performance.now() - began)).toISOString();
  await insertCount(db, {
    id,
    project_id: projectId,
    kind,
    request_id: requestId,
    status: 'running',
    started_at: by.now.toISOString(),
    finished_at: null,
    actor: by.operator.name,
    actor_email: by.operator.key,
    ballots_stored: await ballotsReceived(db, projectId),
    summary: null,
    tally_csv: null,
    error: null,
  });
  const ended = work().then(
    (count) => finishCount(db, id, { status: 'done', finishedAt: at(), summary: JSON.stringify(count.summary), csv: count.csv }),
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`The console's ${kind} of ${survey.slug} failed: ${message}`);
      return finishCount(db, id, { status: 'failed', finishedAt: at(), error: message.split('\n')[0].slice(0, 500) });
    },
  );
  return { id, ended };
}

/** Waits for a count a few seconds: true when it ended meanwhile. */
async function endedSoon(ended: Promise<void>): Promise<boolean> {
  const timer = new AbortController();
  const soon = await Promise.race([ended.then(() => true), wait(ACT_WAITS_MS, false, { signal: timer.signal }).catch(() => false)]);
  timer.abort();
  return soon;
}

/** The refusal of a count while another runs. */
function busyRefusal(request: Request): Response {
  return refusal(request, 409, 'count_running', 'A count or a publication of this survey is running: wait for it to end, then reload the page.');
}

/**
 * POST /api/console/surveys/{slug}/results/count: counts the survey as `results tally` does and
 * stores the count, which the results page shows from then on. An owner's act; refused while
 * the survey is sealed (409), and while another count runs (409).
 */
export async function countResults(context: APIContext, slug: string): Promise<Response> {
  const { request } = context;
  const call = consoleCall(request);
  const found = ownersAct(request, call, slug, 'tally');
  if (found instanceof Response) return found;
  const { survey, operator } = found;
  if (isSealed(survey, call.now)) return sealedRefusal(request, survey);
  const started = await startCount(survey, { operator, now: call.now }, 'count', () => countInProcess({ kind: 'count', slug: survey.slug }));
  if (!started) return busyRefusal(request);
  const ended = await endedSoon(started.ended);
  return done(request, ended ? 200 : 202, { count: started.id, done: ended }, `${resultsPath(survey.slug)}?done=${ended ? 'counted' : 'counting'}`);
}

/**
 * POST /api/console/surveys/{slug}/results/unseal: `reason`. An owner asks to see a sealed
 * survey's count before its close; another owner must approve within 24 hours. Audited. Refused
 * when the survey is not sealed now (409), while a request waits (409), and for a reason that
 * will not do (400, naming the field).
 */
export async function askToUnseal(context: APIContext, slug: string): Promise<Response> {
  const { request } = context;
  const call = consoleCall(request);
  const found = ownersAct(request, call, slug, 'unseal-results');
  if (found instanceof Response) return found;
  const { survey, operator, session } = found;
  if (!isSealed(survey, call.now)) return refusal(request, 409, 'not_sealed', 'This survey is not sealed now: its count is on its results page.');
  const reason = admitReason(callText(call, 'reason'));
  if ('problem' in reason)
    return refusal(request, 400, 'invalid_reason', REASON_WORDS[reason.problem], {}, [{ path: 'reason', message: REASON_WORDS[reason.problem] }]);
  const { db } = await database();
  const projectId = survey.config.project_id;
  const now = call.now.toISOString();
  const waiting = (await recentUnsealRequests(db, projectId, 10)).find((row) => !row.approved_at && row.expires_at > now);
  if (waiting)
    return refusal(
      request,
      409,
      'request_waiting',
      `${waiting.asked_by} asked to unseal already, and it waits for another owner's approval until ${waiting.expires_at.slice(0, 16).replace('T', ' ')} UTC.`,
    );
  const id = uuidv7(call.now.getTime());
  const expires = new Date(call.now.getTime() + UNSEAL_WAIT_MS).toISOString();
  await db.transaction().execute(async (trx) => {
    await insertUnsealRequest(trx, {
      id,
      project_id: projectId,
      asked_by: operator.name,
      asked_by_email: operator.key,
      reason: reason.reason,
      asked_at: now,
      expires_at: expires,
    });
    await appendAudit(trx, {
      projectId,
      ...signedBy(operator, session, 'owner'),
      action: 'unseal ask',
      subject: id,
      reason: reason.reason,
      details: { expires_at: expires },
      now: call.now,
    });
  });
  return done(request, 201, { request: id, expires_at: expires }, `${resultsPath(survey.slug)}?done=asked#request-${id}`);
}

/**
 * POST /api/console/surveys/{slug}/results/unseal/{id}/approve: another owner than the asker
 * approves a waiting request within 24 hours, after a passkey check in the last five minutes.
 * Audited; then the count for the asker's one look starts. The asker's own approval is refused
 * (403), as are an unknown request (404), an expired one and one approved already (409).
 */
export async function approveUnseal(context: APIContext, slug: string, id: string): Promise<Response> {
  const { request } = context;
  const call = consoleCall(request);
  const found = ownersAct(request, call, slug, 'unseal-results');
  if (found instanceof Response) return found;
  const { survey, operator, session } = found;
  const { db } = await database();
  const row = /^[0-9a-f-]{36}$/.test(id) ? await findUnsealRequest(db, survey.config.project_id, id) : undefined;
  if (!row) return refusal(request, 404, 'unknown_request', 'This survey has no such request to unseal: reload the page.');
  if (row.asked_by_email === operator.key)
    return refusal(request, 403, 'own_request', 'You asked to unseal: another owner of this survey must approve it, not you.');
  if (row.approved_at) return refusal(request, 409, 'approved_already', `${row.approved_by ?? 'Another owner'} approved this request already.`);
  if (row.expires_at <= call.now.toISOString())
    return refusal(
      request,
      409,
      'request_expired',
      'This request was not approved within 24 hours and has expired: the owner who needs the count may ask again.',
    );
  if (!isSealed(survey, call.now)) return refusal(request, 409, 'not_sealed', 'This survey is not sealed now: its count is on its results page.');
  if (CONSOLE_ACTS['unseal-results'].sensitive && !recentlyReauthenticated(session, call.now)) return checkAgain(request);
  const approved = await db.transaction().execute(async (trx) => {
    if (!(await approveUnsealRequest(trx, row.id, { name: operator.name, email: operator.key }, call.now.toISOString()))) return false;
    await appendAudit(trx, {
      projectId: survey.config.project_id,
      ...signedBy(operator, session, 'owner'),
      action: 'unseal approve',
      subject: row.id,
      reason: row.reason,
      details: { asked_by: row.asked_by, asked_at: row.asked_at },
      now: call.now,
    });
    return true;
  });
  if (!approved) return refusal(request, 409, 'approved_already', 'This request was approved, or expired, meanwhile: reload the page.');
  const asker = { name: row.asked_by, key: row.asked_by_email, roles: {} } as Operator;
  const started = await startCount(survey, { operator: asker, now: call.now }, 'look', () => countInProcess({ kind: 'count', slug: survey.slug }), row.id);
  if (started) await endedSoon(started.ended);
  return done(request, 200, { approved: row.id }, `${resultsPath(survey.slug)}?done=approved#request-${row.id}`);
}

/**
 * POST /api/console/surveys/{slug}/results/publish: after the close, writes
 * surveys/{slug}/results/ as `results publish` does (publishResults), after a passkey check in
 * the last five minutes; audited first, so that the folder names the entry. The count it makes
 * becomes the page's last count. Refused before the close (409) and while a count runs (409).
 */
export async function publishFromConsole(context: APIContext, slug: string): Promise<Response> {
  const { request } = context;
  const call = consoleCall(request);
  const found = ownersAct(request, call, slug, 'publish-results');
  if (found instanceof Response) return found;
  const { survey, operator, session } = found;
  if (beforeClose(survey, call.now))
    return refusal(request, 409, 'not_closed', `${survey.slug} is open until ${closeInWords(survey) ?? 'a close it does not have'}: publish after the close.`);
  if (CONSOLE_ACTS['publish-results'].sensitive && !recentlyReauthenticated(session, call.now)) return checkAgain(request);
  const { db } = await database();
  if (await runningCount(db, survey.config.project_id, new Date(call.now.getTime() - ABANDONED_MS).toISOString())) return busyRefusal(request);
  await appendAudit(db, {
    projectId: survey.config.project_id,
    ...signedBy(operator, session, 'owner'),
    action: 'publish',
    subject: survey.slug,
    details: { folder: `${survey.slug}/results`, published_at: call.now.toISOString() },
    now: call.now,
  });
  const started = await startCount(survey, { operator, now: call.now }, 'publish', () =>
    countInProcess({ kind: 'publish', slug: survey.slug, at: call.now.toISOString() }),
  );
  if (!started) return busyRefusal(request);
  const ended = await endedSoon(started.ended);
  return done(
    request,
    ended ? 200 : 202,
    { folder: publishedFolder(survey), done: ended },
    `${resultsPath(survey.slug)}?done=${ended ? 'published' : 'publishing'}`,
  );
}

/** GET /api/console/surveys/{slug}/results/counts/{id}/csv: a stored count's CSV, the bytes `results tally --out` writes. */
export async function countCsvDownload(context: APIContext, slug: string, id: string): Promise<Response> {
  const { request } = context;
  const call = consoleCall(request);
  const found = ownersAct(request, call, slug, 'tally');
  if (found instanceof Response) return found;
  const { survey } = found;
  if (isSealed(survey, call.now)) return sealedRefusal(request, survey);
  const { db } = await database();
  const csv = /^[0-9a-f-]{36}$/.test(id) ? await countCsv(db, survey.config.project_id, id) : undefined;
  if (csv === undefined) return refusal(request, 404, 'unknown_count', 'This survey has no such count: reload the page.');
  return new Response(csv, {
    status: 200,
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${survey.slug}-tally.csv"` },
  });
}

/** GET /api/console/surveys/{slug}/results/download: the published folder as a .tar.gz, streamed from the files; 404 before a publication. */
export async function publishedDownload(context: APIContext, slug: string): Promise<Response> {
  const { request } = context;
  const call = consoleCall(request);
  const found = ownersAct(request, call, slug, 'publish-results');
  if (found instanceof Response) return found;
  const { survey } = found;
  const archive = await folderArchive(publishedFolder(survey), 'results');
  if (!archive) return refusal(request, 404, 'not_published', 'This survey has no published folder yet: publish it first.');
  return new Response(archive, {
    status: 200,
    headers: { 'Content-Type': 'application/gzip', 'Content-Disposition': `attachment; filename="${survey.slug}-results.tar.gz"` },
  });
}
