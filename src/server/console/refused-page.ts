import { database } from '../db/database.ts';
import type { RefusedBallotRow } from '../db/tables/refused-ballots.table.ts';
import { refusedCounts, refusedPage } from '../intake/refused-ballots.repository.ts';
import { allServerSurveys, type ServerSurvey } from '../surveys.ts';
import { ADMIT_REASON_MAX, refusedParts } from '../../results/refused.ts';
import { allFields } from '../../survey/config/layout.ts';
import { fieldLabel } from '../../survey/ballots/field-messages.ts';
import { DEMO_SECRET, expirationTime } from '../../survey/people/link.ts';
import { voterFields } from '../../survey/people/voter.ts';
import { may, roleOn } from '../../survey/operators/operator-rights.ts';
import type { Operator, OperatorRole } from '../../survey/operators/operators.struct.ts';
import type { ConsoleVisit, RefusedBallotView, RefusedPageView } from '../../survey/operators/console-views.ts';

// A survey's refused ballots in the console (/console/{slug}/refused/): a page of them, newest
// first, by keyset on (project_id, id), as each role may see them. The act that admits one is
// refused-acts.ts; both find the survey, the page's address and its place here.

/** The refused ballots a page shows at once. */
const PAGE_SIZE = 50;

/** A refused ballot's id: a UUIDv7, as the API writes it. */
const REFUSED_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** True for text shaped as a refused ballot's id; any other names no refused ballot, and is never looked up. */
export function isRefusedId(text: string): boolean {
  return REFUSED_ID.test(text);
}

/** The survey at this slug and the operator's role on it; undefined for a survey they have no role on, as for one that does not exist. */
export function surveyOfOperator(operator: Operator, slug: string): { survey: ServerSurvey; role: OperatorRole } | undefined {
  const survey = allServerSurveys().find((one) => one.slug === slug);
  const role = survey && roleOn(operator, survey.slug);
  return survey && role ? { survey, role } : undefined;
}

/** The address of a survey's refused ballots page. */
export function refusedPath(slug: string): string {
  return `/console/${slug}/refused/`;
}

/** A page's place in the list, from its address or a form's field: `before` or `after` an id, or none (the newest). */
export function placeOf(query: URLSearchParams): { before?: string; after?: string } {
  const after = query.get('after') ?? '';
  if (isRefusedId(after)) return { after };
  const before = query.get('before') ?? '';
  return isRefusedId(before) ? { before } : {};
}

/** A place as a query string, without the `?`: what a page's forms carry and its links name. */
export function placeQuery(place: { before?: string; after?: string }): string {
  return new URLSearchParams(place.after !== undefined ? { after: place.after } : place.before !== undefined ? { before: place.before } : {}).toString();
}

/** Labels of a survey's fields by name, for a manager's view of the answers. */
function labelsOf(survey: ServerSurvey): Map<string, string> {
  return new Map(allFields(survey.config.layout).map((field) => [field.name, fieldLabel(field)]));
}

/** One refused ballot as the role may see it: the voter's name, address and answers only when `seesVoters`. */
function ballotView(survey: ServerSurvey, row: RefusedBallotRow, seesVoters: boolean, labels: () => Map<string, string>): RefusedBallotView {
  const parts = refusedParts(survey, row);
  const problems = (JSON.parse(row.problems) as Array<{ path: string; message: string }>).map((problem) => problem.message);
  const closes = expirationTime(survey.config);
  const afterClose = row.reason === 'expired' && closes !== undefined ? Date.parse(row.received_at) - closes : undefined;
  const view: RefusedBallotView = {
    id: row.id,
    receivedAt: row.received_at,
    reason: row.reason,
    problems,
    link: row.secret === DEMO_SECRET ? 'demo' : row.secret ? 'personal' : 'public',
    ...(afterClose !== undefined && afterClose > 0 ? { afterClose } : {}),
    nominations: parts.nominations.length,
    writeIns: parts.writeIns.length,
    files: (JSON.parse(row.files) as unknown[]).length,
    ...(row.admitted_at ? { admitted: { at: row.admitted_at, by: row.admitted_by ?? '', why: row.admit_reason ?? '', ballotId: row.ballot_id ?? '' } } : {}),
  };
  if (!seesVoters) return view;
  const fields = voterFields(survey.config);
  const answer = (name: string | undefined) =>
    parts.answers
      .filter((part) => part.field === name)
      .map((part) => part.value)
      .join(', ');
  return {
    ...view,
    voter: {
      name: fields.name.map(answer).filter(Boolean).join(' '),
      email: answer(fields.email),
      answers: parts.answers.map((part) => [labels().get(part.field) ?? part.field, part.value] as const),
    },
  };
}

/**
 * A page of a survey's refused ballots for an operator who may admit one (reviewer and up; the
 * passkey is asked again when they admit, not to read), as the address asks for it (`before`,
 * `after`; `admitted` after an admission); 'forbidden' for an auditor; undefined for a survey
 * they have no role on, as for one that does not exist.
 */
export async function refusedBallotsPage(visit: ConsoleVisit, slug: string, url: URL): Promise<RefusedPageView | 'forbidden' | undefined> {
  const found = surveyOfOperator(visit.operator, slug);
  if (!found) return undefined;
  const { survey } = found;
  if (!may(visit.operator, 'admit-refused', survey.slug)) return 'forbidden';
  const { db } = await database();
  const projectId = survey.config.project_id;
  const place = placeOf(url.searchParams);
  const [{ rows, more }, counts] = await Promise.all([refusedPage(db, projectId, place, PAGE_SIZE), refusedCounts(db, projectId)]);
  const seesVoters = may(visit.operator, 'see-voters', survey.slug);
  let labels: Map<string, string> | undefined;
  const ballots = rows.map((row) => ballotView(survey, row, seesVoters, () => (labels ??= labelsOf(survey))));
  const path = refusedPath(survey.slug);
  const address = (at: { before?: string; after?: string }) => `${path}?${placeQuery(at)}`;
  const first = rows[0]?.id;
  const last = rows.at(-1)?.id;
  // Newer ones exist when the page was asked below the newest, or after a place with more beyond it; older ones when more were read, or the page came back from them.
  const hasNewer = place.after !== undefined ? more : place.before !== undefined;
  const hasOlder = place.after !== undefined ? rows.length > 0 : more;
  const admitted = url.searchParams.get('admitted') ?? '';
  return {
    slug: survey.slug,
    title: survey.config.survey_title ?? survey.slug,
    path,
    mayAdmit: may(visit.operator, 'admit-refused', survey.slug),
    seesVoters,
    refused: counts.refused,
    admitted: counts.admitted,
    ballots,
    ...(hasNewer ? { newer: first !== undefined ? address({ after: first }) : path } : {}),
    ...(hasOlder && last !== undefined ? { older: address({ before: last }) } : {}),
    place: placeQuery(place),
    ...(ballots.some((ballot) => ballot.id === admitted && ballot.admitted) ? { justAdmitted: admitted } : {}),
    reasonMax: ADMIT_REASON_MAX,
  };
}
