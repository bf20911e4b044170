import { database } from '../db/database.ts';
import { allServerSurveys, type ServerSurvey } from '../surveys.ts';
import { expirationTime, isExpired } from '../../survey/people/link.ts';
import { hasPublishedResults } from '../../survey/published/published-folder.ts';
import { mayManage, roleOn } from '../../survey/operators/operator-rights.ts';
import type { Operator } from '../../survey/operators/operators.struct.ts';
import type {
  AuditEntryView,
  AuditPageView,
  ConsoleVisit,
  EnrolPageState,
  ManagedOperatorRow,
  PasskeyRow,
  RosterBreakdown,
  SessionRow,
  SignalRunView,
  SurveyFigures,
  SurveyOverviewRow,
} from '../../survey/operators/console-views.ts';
import {
  ballotsPerDay,
  ballotsReceived,
  largestGroups,
  latestSignalRun,
  mailStopped,
  messagesByStatus,
  peopleTotals,
  refusedByReason,
  rosterColumnsOf,
} from './console-views.repository.ts';
import { groupsLeftOut } from '../../survey/people/roster-groups.ts';
import { credentialsOf, credentialSummary } from './passkeys.repository.ts';
import { openSessions } from './sessions.ts';
import { enrolmentLink } from './enrolment.ts';
import { consoleOperators, findOperator } from './operators.ts';
import { DEMO_SECRET } from '../../survey/people/link.ts';
import { requestTime } from '../request-hooks.ts';
import { invitedCount, respondedCount } from '../people/people.repository.ts';
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AuditRow } from '../db/tables/audit-log.table.ts';
import { auditChoices, auditPage, verifyAuditTrail, type AuditFilter } from '../db/audit.repository.ts';
import { publishedAnchor } from '../db/audit-anchors.ts';
import type { ChainAnchor } from '../db/audit-chain.ts';
import { countRequest } from '../rate-limits.repository.ts';
import { serverConfig } from '../config.ts';
import { EVERY_SURVEY } from '../../survey/operators/operators.struct.ts';

// What the console's pages show (src/pages/console/), gathered here: the only server module
// those pages import (biome.jsonc). Each function takes the operator the middleware found, and
// shows nothing of a survey they have no role on.

/**
 * A survey's invited people and respondents: one row of its counts, or, before its people are read
 * with these counts (the first start after an upgrade), counted on the people's indexes.
 */
async function peopleOf(db: Kysely<Database>, projectId: string): Promise<{ invited: number; responded: number }> {
  const totals = await peopleTotals(db, projectId);
  if (totals) return totals;
  const [invited, responded] = await Promise.all([invitedCount(db, projectId, DEMO_SECRET), respondedCount(db, projectId)]);
  return { invited, responded: Math.min(invited, responded) };
}

/** A survey's row for an operator with a role on it: where it stands and its figures. */
async function overviewRow(survey: ServerSurvey, role: NonNullable<ReturnType<typeof roleOn>>, now: Date): Promise<SurveyOverviewRow> {
  const { db } = await database();
  const projectId = survey.config.project_id;
  const [ballots, { invited, responded }] = await Promise.all([ballotsReceived(db, projectId), peopleOf(db, projectId)]);
  const closing = expirationTime(survey.config);
  return {
    slug: survey.slug,
    title: survey.config.survey_title ?? survey.slug,
    role,
    open: !isExpired(survey.config, now.getTime()),
    closesAt: closing === undefined ? undefined : new Date(closing).toISOString(),
    sealed: survey.config.results.sealed,
    published: hasPublishedResults(survey.slug),
    ballots,
    invited,
    responded,
    pending: invited - responded,
  };
}

/** The surveys an operator has a role on, and no other, by slug, with their figures. */
export async function surveyOverview(operator: Operator, now: Date): Promise<SurveyOverviewRow[]> {
  const surveys = allServerSurveys().sort((a, b) => a.slug.localeCompare(b.slug));
  const rows: SurveyOverviewRow[] = [];
  for (const survey of surveys) {
    const role = roleOn(operator, survey.slug);
    if (role) rows.push(await overviewRow(survey, role, now));
  }
  return rows;
}

/** The groups of a roster column a survey's page shows: the largest, the rest in one row. */
const GROUPS_SHOWN = 50;

/**
 * A survey's invited people by the roster column `asked` names (the address's `?by=`), else by
 * its first column. The name is only ever compared with the columns the roster has, never put
 * into a query: an unknown one (a typo, a NUL, ten thousand characters) shows the first column
 * and says so.
 */
async function rosterBreakdown(db: Kysely<Database>, projectId: string, asked: string | null, people: { invited: number; responded: number }) {
  const columns = await rosterColumnsOf(db, projectId);
  const chosen = columns.find((column) => column.name === asked) ?? columns[0];
  const unknownColumn = asked !== null && asked !== '' && chosen?.name !== asked;
  if (!chosen) return { columns: [], unknownColumn, groups: [] } satisfies RosterBreakdown;
  const groups = await largestGroups(db, projectId, chosen.name, GROUPS_SHOWN);
  const others = groupsLeftOut({ values: chosen.groups, ...people }, groups);
  return { columns: columns.map((column) => column.name), column: chosen.name, unknownColumn, groups, ...(others ? { others } : {}) } satisfies RosterBreakdown;
}

/** A survey's latest look for signals in the page's words, with the ballots stored since it began; null before the first. */
async function signalsSeen(db: Kysely<Database>, projectId: string, ballots: number): Promise<SignalRunView | null> {
  const run = await latestSignalRun(db, projectId);
  if (!run) return null;
  let thresholds: Array<[string, string]> = [];
  try {
    thresholds = Object.entries(JSON.parse(run.thresholds) as Record<string, unknown>).map(([name, value]) => [name, String(value)]);
  } catch {
    // A run's thresholds are written by `results signals` as JSON; anything else is left unsaid.
  }
  return {
    at: run.ran_at,
    actor: run.actor,
    via: run.via,
    ballotsRead: Number(run.ballots_read),
    arrivedSince: Math.max(0, ballots - Number(run.ballots_stored)),
    clusters: Number(run.clusters),
    ballotsNamed: Number(run.ballots_named),
    kinds: run.kinds.map((kind) => ({ kind: kind.kind, clusters: Number(kind.clusters), ballotsNamed: Number(kind.ballots_named) })),
    thresholds,
  };
}

/**
 * One survey's participation for an operator with a role on it, its people by the roster column
 * `by` names; undefined for a survey they have none on, as for one that does not exist.
 */
export async function surveyParticipation(operator: Operator, slug: string, now: Date, by: string | null = null): Promise<SurveyFigures | undefined> {
  const survey = allServerSurveys().find((one) => one.slug === slug);
  const role = survey && roleOn(operator, survey.slug);
  if (!survey || !role) return undefined;
  const { db } = await database();
  const projectId = survey.config.project_id;
  const [row, perDay, messages, stopped, refused] = await Promise.all([
    overviewRow(survey, role, now),
    ballotsPerDay(db, projectId),
    messagesByStatus(db, projectId),
    mailStopped(db, projectId),
    refusedByReason(db, projectId),
  ]);
  const [roster, signals] = await Promise.all([rosterBreakdown(db, projectId, by, row), signalsSeen(db, projectId, row.ballots)]);
  return { ...row, perDay, messages, mailStopped: stopped, refused, roster, signals };
}

/** The signed-in operator's open sessions (this one marked) and passkeys, for their sessions page. */
export async function sessionsPage(visit: ConsoleVisit, now: Date): Promise<{ sessions: SessionRow[]; passkeys: PasskeyRow[] }> {
  const { db } = await database();
  const [sessions, passkeys] = await Promise.all([openSessions(db, visit.operator.key, now), credentialsOf(db, visit.operator.key)]);
  return {
    sessions: sessions.map((row) => ({
      id: row.id,
      createdAt: row.created_at,
      lastSeenAt: row.last_seen_at,
      agent: row.agent,
      current: row.id === visit.session.id,
    })),
    passkeys: passkeys.map((row) => ({ id: row.id, createdAt: row.created_at, lastUsedAt: row.last_used_at, synced: row.backed_up === 1 })),
  };
}

/** The operators this operator may manage (an owner's), with their passkeys and open sessions; empty for anyone else. */
export async function operatorsPage(operator: Operator, now: Date): Promise<ManagedOperatorRow[]> {
  const state = consoleOperators();
  if (!state.usable) return [];
  const managed = [...state.byKey.values()].filter((other) => mayManage(operator, other));
  if (managed.length === 0) return [];
  const { db } = await database();
  const passkeys = await credentialSummary(db);
  const rows: ManagedOperatorRow[] = [];
  for (const other of managed) {
    const held = passkeys.get(other.key);
    rows.push({
      email: other.email,
      name: other.name,
      roles: other.roles,
      passkeys: held?.passkeys ?? 0,
      lastUsedAt: held?.lastUsedAt ?? null,
      openSessions: (await openSessions(db, other.key, now)).length,
    });
  }
  return rows;
}

/** True when this operator may manage at least one other (the operators page, and its link in the menu). */
export function managesOperators(operator: Operator): boolean {
  const state = consoleOperators();
  return state.usable && [...state.byKey.values()].some((other) => mayManage(operator, other));
}

/** Where an enrolment link stands, for its page; it spends nothing (a mail scanner may open it). */
export async function enrolPage(token: string, now: Date): Promise<EnrolPageState> {
  const { db } = await database();
  const link = await enrolmentLink(db, token, now);
  if (link.state !== 'valid') return link;
  const operator = findOperator(link.operator);
  return operator ? { state: 'valid', name: operator.name, expiresAt: link.expiresAt } : { state: 'unknown' };
}

/** The time a console page is drawn at: the request's (tests may set it), for its sessions' limits and its surveys' states. */
export function pageTime(request: Request): Date {
  return requestTime(request);
}

/** The entries an audit page shows at once. */
const AUDIT_PAGE_SIZE = 100;
/** The checks of a whole trail a session may ask for in one rate-limit window (RATE_LIMIT_WINDOW_SECONDS): each reads the whole trail. */
const CHECKS_PER_WINDOW = 10;

/** A stored entry's details (JSON) as name and value pairs in words; text that is not an object, whole under "details". */
function detailsInWords(details: string | null): Array<[string, string]> {
  if (details === null || details === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(details);
  } catch {
    return [['details', details]];
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return [['details', details]];
  const words = (value: unknown): string => {
    if (typeof value === 'string') return value;
    if (Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null)) return value.map(String).join(', ');
    return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
  };
  return Object.entries(parsed).map(([name, value]) => [name, words(value)]);
}

const entryView = (row: AuditRow): AuditEntryView => ({
  seq: row.seq ?? 0,
  at: row.at,
  actor: row.actor,
  actorEmail: row.actor_email,
  role: row.role,
  via: row.via,
  action: row.action,
  subject: row.subject,
  reason: row.reason,
  details: detailsInWords(row.details),
});

/** A positive whole number from the address, else undefined (a mistyped page number shows the newest page). */
function seqParam(url: URL, name: string): number | undefined {
  const value = url.searchParams.get(name);
  return value !== null && /^[1-9][0-9]{0,15}$/.test(value) ? Number(value) : undefined;
}

/**
 * "Check the chain": the check `audit --verify` makes, with its anchors, and its words
 * (`verified: …` or `not verified: …`). A check reads the whole trail, so a session has
 * CHECKS_PER_WINDOW of them a window, counted in the database as every rate limit is.
 */
async function checkChain(db: Kysely<Database>, projectId: string, anchors: () => ChainAnchor[], visit: ConsoleVisit, now: Date) {
  const config = serverConfig();
  const counted = await countRequest(db, createHash('sha256').update(`audit-check:${visit.session.id}`).digest('hex'), now, config.rateLimitWindowMs);
  if (counted.hits > CHECKS_PER_WINDOW) {
    const seconds = Math.max(1, Math.ceil((counted.resetAt - now.getTime()) / 1000));
    return { ok: false, message: `Not checked: the chain was checked ${CHECKS_PER_WINDOW} times from this session lately; check again in ${seconds} seconds.` };
  }
  let given: ChainAnchor[];
  try {
    given = anchors();
  } catch (error) {
    return { ok: false, message: `not verified: ${(error as Error).message}` };
  }
  const check = await verifyAuditTrail(db, projectId, given);
  return { ok: check.ok, message: check.ok ? check.message : `not verified: ${check.message}.` };
}

/** A page of a trail as the address asks for it: its filters, its place (`before`, `after`), and the check when `check` is there. */
async function trailPage(
  projectId: string,
  title: string,
  path: string,
  anchors: () => ChainAnchor[],
  visit: ConsoleVisit,
  url: URL,
  now: Date,
): Promise<AuditPageView> {
  const { db } = await database();
  const choices = await auditChoices(db, projectId);
  // A filter names an actor or an action of the trail, or none (an unknown one would show an empty page and a select that does not say why).
  const actor = url.searchParams.get('actor') || undefined;
  const action = url.searchParams.get('action') || undefined;
  const filter: AuditFilter = {
    ...(actor !== undefined ? { actor } : {}),
    ...(action !== undefined ? { action } : {}),
  };
  const after = seqParam(url, 'after');
  const before = after === undefined ? seqParam(url, 'before') : undefined;
  const { entries, more } = await auditPage(db, projectId, filter, { before, after }, AUDIT_PAGE_SIZE);
  const address = (place: Record<string, number>) => {
    const query = new URLSearchParams({ ...filter, ...Object.fromEntries(Object.entries(place).map(([name, seq]) => [name, String(seq)])) });
    return `${path}?${query}`;
  };
  const first = entries[0]?.seq ?? undefined;
  const last = entries.at(-1)?.seq ?? undefined;
  // Newer entries exist when the page was asked below the newest, or after a place with more beyond it; older ones when more were read, or the page came back from them.
  const hasNewer = after !== undefined ? more : before !== undefined;
  const hasOlder = after !== undefined ? entries.length > 0 : more;
  return {
    title,
    path,
    entries: entries.map(entryView),
    actors: choices.actors,
    actions: choices.actions,
    ...filter,
    ...(hasNewer && first !== undefined ? { newer: address({ after: first }) } : {}),
    ...(hasNewer && first === undefined && before !== undefined ? { newer: address({ after: before - 1 }) } : {}),
    ...(hasOlder && last !== undefined ? { older: address({ before: last }) } : {}),
    ...(url.searchParams.has('check') ? { check: await checkChain(db, projectId, anchors, visit, now) } : {}),
  };
}

/** A survey's audit trail for an operator with any role on it; undefined for a survey they have none on, as for one that does not exist. */
export async function surveyAuditPage(visit: ConsoleVisit, slug: string, url: URL, now: Date): Promise<AuditPageView | undefined> {
  const survey = allServerSurveys().find((one) => one.slug === slug);
  if (!survey || !roleOn(visit.operator, survey.slug)) return undefined;
  const anchor = () => {
    const published = publishedAnchor(survey.slug);
    return published ? [published] : [];
  };
  return trailPage(survey.config.project_id, survey.config.survey_title ?? survey.slug, `/console/${survey.slug}/audit/`, anchor, visit, url, now);
}

/** True for an owner of every survey: they alone see the operators' own trail (enrolment links, passkeys, sessions ended, of every operator). */
export function seesOperatorsTrail(operator: Operator): boolean {
  return Object.hasOwn(operator.roles, EVERY_SURVEY) && operator.roles[EVERY_SURVEY] === 'owner';
}

/** The operators' own audit trail (project `*`) for an owner of every survey; undefined for anyone else. */
export async function operatorsAuditPage(visit: ConsoleVisit, url: URL, now: Date): Promise<AuditPageView | undefined> {
  if (!seesOperatorsTrail(visit.operator)) return undefined;
  return trailPage(EVERY_SURVEY, 'Operators', '/console/operators/audit/', () => [], visit, url, now);
}

export { refusedBallotsPage } from './refused-page.ts';
export { signalsPage } from './signals-page.ts';
export { writeInsPage } from './write-ins-page.ts';
export { mailPage } from './mail-page.ts';
export { resultsPage } from './results-page.ts';
