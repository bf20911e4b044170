import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { database } from '../db/database.ts';
import { appendAudit } from '../db/audit.repository.ts';
import type { ServerSurvey } from '../surveys.ts';
import { ballotsReceived } from './console-views.repository.ts';
import { signedBy } from './sessions.ts';
import { surveyOfOperator } from './refused-page.ts';
import {
  countOfRequest,
  lastDoneCount,
  newestCount,
  newestExclusions,
  recentUnsealRequests,
  runningCount,
  takeLook,
  type CountFacts,
} from './results.repository.ts';
import { ADMIT_REASON_MAX } from '../../results/refused.ts';
import { publishedFolder } from '../../results/publish/publish.ts';
import { beforeClose } from '../../results/publish/seal.ts';
import { methodologyText } from '../../results/tally/methodology.ts';
import { closingText } from '../../survey/people/link.ts';
import { may } from '../../survey/operators/operator-rights.ts';
import type { ConsoleVisit, CountSummary, CountView, ResultsPageView, UnsealRequestView } from '../../survey/operators/console-views.ts';
import type { PublishedResults } from '../../survey/published/published-results.ts';
import type { UnsealRequestRow } from '../db/tables/results-console.table.ts';

// A survey's results in the console (/console/{slug}/results/), for its owners: sealed until the
// close but for an early look two owners agree on; after it, the last count, the methodology, the
// exclusions and the publication. A page never counts: it shows the count an owner's Count or a
// publication stored (results-acts.ts runs them), so it opens as fast at a million ballots as at ten.

/** The unseal requests a page lists, newest first. */
const REQUESTS_SHOWN = 10;
/** The operators' exclusions a page lists, newest first. */
const EXCLUSIONS_SHOWN = 20;
/** How long an unseal request waits for another owner's approval. */
export const UNSEAL_WAIT_MS = 24 * 60 * 60 * 1000;
/** A count left running longer than this was abandoned (its server stopped): it no longer holds the next one back. */
export const ABANDONED_MS = 60 * 60 * 1000;

/** The address of a survey's results page. */
export function resultsPath(slug: string): string {
  return `/console/${slug}/results/`;
}

/** True while the survey's count may not be shown: sealed, and before its close. */
export function isSealed(survey: ServerSurvey, now: Date): boolean {
  return survey.config.results.sealed && beforeClose(survey, now);
}

/** The close as the page says it: "31 December 2099 at 23:59 UTC", or "the end of 31 January 2025 (UTC)" for a bare date. */
export function closeInWords(survey: ServerSurvey): string | undefined {
  const text = closingText(survey.config);
  if (!text) return undefined;
  return /^\d{4}-\d{2}-\d{2}$/.test(survey.config.expiration_date ?? '') ? `the end of ${text} (UTC)` : text;
}

/** A finished count as the page shows it, with the ballots stored since it began. */
function countView(slug: string, row: CountFacts, ballotsNow: number): CountView | undefined {
  if (row.status !== 'done' || !row.summary) return undefined;
  return {
    id: row.id,
    kind: row.kind,
    startedAt: row.started_at,
    finishedAt: row.finished_at ?? row.started_at,
    actor: row.actor,
    ballotsStored: Number(row.ballots_stored),
    arrivedSince: Math.max(0, ballotsNow - Number(row.ballots_stored)),
    summary: JSON.parse(row.summary) as CountSummary,
    ...(row.kind === 'look' ? {} : { csv: `/api/console/surveys/${slug}/results/counts/${row.id}/csv` }),
  };
}

/** An unseal request in the page's words, for this viewer. */
function requestView(row: UnsealRequestRow, viewer: string, now: Date): UnsealRequestView {
  const expired = !row.approved_at && Date.parse(row.expires_at) <= now.getTime();
  const state = row.looked_at ? 'looked' : row.approved_at ? 'approved' : expired ? 'expired' : 'waiting';
  const own = row.asked_by_email === viewer;
  return {
    id: row.id,
    askedBy: row.asked_by,
    askedAt: row.asked_at,
    reason: row.reason,
    expiresAt: row.expires_at,
    state,
    ...(row.approved_by ? { approvedBy: row.approved_by } : {}),
    ...(row.approved_at ? { approvedAt: row.approved_at } : {}),
    ...(row.looked_at ? { lookedAt: row.looked_at } : {}),
    own,
    mayApprove: state === 'waiting' && !own,
  };
}

/** A folder as the page names it for `git add`: from the server's working folder (the project's) when it is inside it, else whole. */
function shownPath(folder: string): string {
  const relative = path.relative(process.cwd(), folder);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : folder;
}

/** The published folder's facts, when results.json is there and readable. */
function publishedFacts(survey: ServerSurvey): ResultsPageView['published'] {
  const folder = publishedFolder(survey);
  const file = path.join(folder, 'results.json');
  if (!existsSync(file)) return undefined;
  try {
    const results = JSON.parse(readFileSync(file, 'utf8')) as PublishedResults;
    return {
      at: results.published_at,
      ballots: results.ballots.received,
      head: results.head,
      folder: shownPath(folder),
      download: `/api/console/surveys/${survey.slug}/results/download`,
    };
  } catch {
    return undefined;
  }
}

/**
 * The asker's one look, when another owner has approved their request and its count is done:
 * this page view spends it (recorded on the trail, in one transaction), so no later view shows
 * it. Undefined when there is none to take; `pending` while the count runs or when it failed.
 */
async function oneLook(
  survey: ServerSurvey,
  visit: ConsoleVisit,
  rows: readonly UnsealRequestRow[],
  ballotsNow: number,
  now: Date,
): Promise<{ look?: CountView; pending?: ResultsPageView['lookPending']; spent?: string }> {
  const mine = rows.find((row) => row.asked_by_email === visit.operator.key && row.approved_at && !row.looked_at);
  if (!mine) return {};
  const { db } = await database();
  const count = await countOfRequest(db, mine.id);
  if (count?.status !== 'done') return { pending: { requestId: mine.id, failed: count?.status === 'failed' || count === undefined } };
  const look = countView(survey.slug, count, ballotsNow);
  const taken = await db.transaction().execute(async (trx) => {
    if (!(await takeLook(trx, mine.id, now.toISOString()))) return false;
    await appendAudit(trx, {
      projectId: survey.config.project_id,
      ...signedBy(visit.operator, visit.session, 'owner'),
      action: 'unseal look',
      subject: mine.id,
      reason: mine.reason,
      details: { asked_by: mine.asked_by, approved_by: mine.approved_by, count: count.id, ballots: look?.summary.ballots ?? 0 },
      now,
    });
    return true;
  });
  return taken && look ? { look, spent: mine.id } : {};
}

/**
 * A survey's results page for an owner of it; undefined for a survey the operator has no role
 * on, as for one that does not exist, and 'forbidden' for a role below owner.
 */
export async function resultsPage(visit: ConsoleVisit, slug: string, url: URL, now: Date): Promise<ResultsPageView | 'forbidden' | undefined> {
  const found = surveyOfOperator(visit.operator, slug);
  if (!found) return undefined;
  const { survey } = found;
  if (!may(visit.operator, 'tally', survey.slug)) return 'forbidden';
  const { db } = await database();
  const projectId = survey.config.project_id;
  const sealed = isSealed(survey, now);
  const abandonedBefore = new Date(now.getTime() - ABANDONED_MS).toISOString();
  const [ballotsNow, requestRows, newest, done, running, exclusions] = await Promise.all([
    ballotsReceived(db, projectId),
    recentUnsealRequests(db, projectId, REQUESTS_SHOWN),
    sealed ? undefined : newestCount(db, projectId),
    sealed ? undefined : lastDoneCount(db, projectId),
    sealed ? undefined : runningCount(db, projectId, abandonedBefore),
    sealed ? undefined : newestExclusions(db, projectId, EXCLUSIONS_SHOWN),
  ]);
  const { look, pending, spent } = sealed ? await oneLook(survey, visit, requestRows, ballotsNow, now) : {};
  const requests = requestRows.map((row) => requestView(row.id === spent ? { ...row, looked_at: now.toISOString() } : row, visit.operator.key, now));
  const count = done && countView(survey.slug, done, ballotsNow);
  const failed = newest && newest.status === 'failed' && (!done || newest.id > done.id) ? newest : undefined;
  const doneParam = url.searchParams.get('done');
  const closesIn = closeInWords(survey);
  const methodology = methodologyText(survey.config)
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(2));
  return {
    slug: survey.slug,
    title: survey.config.survey_title ?? survey.slug,
    path: resultsPath(survey.slug),
    sealed,
    ...(closesIn ? { closesIn } : {}),
    closed: !beforeClose(survey, now),
    ...(count ? { count } : {}),
    ...(running && (running.kind === 'count' || running.kind === 'publish')
      ? { running: { kind: running.kind, startedAt: running.started_at, actor: running.actor } }
      : {}),
    ...(failed && (failed.kind === 'count' || failed.kind === 'publish')
      ? { failed: { kind: failed.kind, startedAt: failed.started_at, error: failed.error ?? '' } }
      : {}),
    ...(look ? { look } : {}),
    ...(pending ? { lookPending: pending } : {}),
    requests,
    requestWaiting: requests.some((request) => request.state === 'waiting'),
    methodology,
    operatorExclusions: exclusions
      ? {
          total: exclusions.total,
          rows: exclusions.rows.map((row) => ({ ballotId: row.ballot_id, by: row.excluded_by, at: row.excluded_at, reason: row.reason })),
        }
      : { total: 0, rows: [] },
    ...(sealed ? {} : { published: publishedFacts(survey) }),
    ...(isDone(doneParam) ? { done: doneParam } : {}),
    reasonMax: ADMIT_REASON_MAX,
  };
}

const DONE = ['asked', 'approved', 'counted', 'counting', 'published', 'publishing'] as const;
function isDone(value: string | null): value is NonNullable<ResultsPageView['done']> {
  return (DONE as readonly (string | null)[]).includes(value);
}
