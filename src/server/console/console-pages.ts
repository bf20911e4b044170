import { database } from '../db/database.ts';
import { allServerSurveys, type ServerSurvey } from '../surveys.ts';
import { expirationTime, isExpired } from '../../survey/people/link.ts';
import { hasPublishedResults } from '../../survey/published/published-folder.ts';
import { mayManage, roleOn } from '../../survey/operators/operator-rights.ts';
import type { Operator } from '../../survey/operators/operators.struct.ts';
import type {
  ConsoleVisit,
  EnrolPageState,
  ManagedOperatorRow,
  PasskeyRow,
  SessionRow,
  SurveyFigures,
  SurveyOverviewRow,
} from '../../survey/operators/console-views.ts';
import { ballotsPerDay, ballotsReceived, mailStopped, messagesByStatus, personalLinksVoted, refusedByReason } from './console-views.repository.ts';
import { credentialsOf, credentialSummary } from './passkeys.repository.ts';
import { openSessions } from './sessions.ts';
import { enrolmentLink } from './enrolment.ts';
import { consoleOperators, findOperator } from './operators.ts';
import { DEMO_SECRET } from '../../survey/people/link.ts';
import { requestTime } from '../request-hooks.ts';
import { invitedCount } from '../people/people.repository.ts';

// What the console's pages show (src/pages/console/), gathered here: the only server module
// those pages import (biome.jsonc). Each function takes the operator the middleware found, and
// shows nothing of a survey they have no role on.

/** A survey's row for an operator with a role on it: where it stands and its figures. */
async function overviewRow(survey: ServerSurvey, role: NonNullable<ReturnType<typeof roleOn>>, now: Date): Promise<SurveyOverviewRow> {
  const { db } = await database();
  const projectId = survey.config.project_id;
  const [ballots, voted, invited] = await Promise.all([
    ballotsReceived(db, projectId),
    personalLinksVoted(db, projectId),
    invitedCount(db, projectId, DEMO_SECRET),
  ]);
  const responded = Math.min(voted, invited);
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

/** One survey's participation for an operator with a role on it; undefined for a survey they have none on, as for one that does not exist. */
export async function surveyParticipation(operator: Operator, slug: string, now: Date): Promise<SurveyFigures | undefined> {
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
  return { ...row, perDay, messages, mailStopped: stopped, refused };
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
