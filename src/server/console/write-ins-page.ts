import { database } from '../db/database.ts';
import { nomineeIndex } from '../search/nominees.ts';
import { HITS_PER_PAGE } from '../../survey/nominees/nominee-search.ts';
import { ADMIT_REASON_MAX } from '../../results/refused.ts';
import { nomineeCounts, queueGroups, queueRows, queueTotals, type QueueGroup, type QueuePlace } from '../../results/writeins/writeins-queue.ts';
import { categoryKey } from '../../survey/ballots/ballot-keys.ts';
import { may } from '../../survey/operators/operator-rights.ts';
import type { ConsoleVisit, WriteInGroupView, WriteInMatchView, WriteInsPageView } from '../../survey/operators/console-views.ts';
import { surveyOfOperator } from './refused-page.ts';
import type { ServerSurvey } from '../surveys.ts';

// A survey's write-ins in the console (/console/{slug}/write-ins/): the groups `writeins` lists,
// as the API counts them, those waiting for a decision first, 50 a page by keyset; on the group
// the address names, the nominee search the ballot uses, each match with its count before and
// after. The acts are write-ins-acts.ts.

/** The groups a page shows at once. */
const PAGE_SIZE = 50;

/** The longest name a new nominee takes from the console (the nominee list's longest names are far shorter). */
export const NEW_NOMINEE_NAME_MAX = 200;

/** The address of a survey's write-ins page. */
function writeInsPath(slug: string): string {
  return `/console/${slug}/write-ins/`;
}

/** A group's address: the page it is on, opened at it. */
export function groupAddress(slug: string, id: string, extra: Record<string, string> = {}): string {
  return `${writeInsPath(slug)}?${new URLSearchParams({ group: id, ...extra })}#group-${id}`;
}

/** What the last act did, in words, for the group it names. */
function doneWords(done: string, group: WriteInGroupView | undefined): string | undefined {
  if (!group) return undefined;
  const where = `“${group.name}” in ${group.category}`;
  if (done === 'undo') return group.decision ? undefined : `Undone: ${where} waits for a decision again, and the tally counts it no more.`;
  if (done !== 'attach' || !group.decision || group.decision.action === 'reject') return undefined;
  return `Attached: ${where} counts for ${group.decision.nomineeName ?? group.decision.nomineeId}, ${group.count} write-in${group.count === 1 ? '' : 's'}; a later one in any of its spellings counts by itself.`;
}

/** A nominee's details as the ballot's suggestions show them. */
const detailOf = (nominee: { specialty?: string; practice?: string; city?: string }) =>
  [nominee.specialty, nominee.practice, nominee.city].filter(Boolean).join(', ');

/** The nominee search on one group: the ballot's engine, its sub-category first, each match counted now and with the group. */
async function searchOn(survey: ServerSurvey, group: QueueGroup, query: string) {
  const index = nomineeIndex(survey);
  const hits = query.trim() ? index.engine().search(query.slice(0, 100), { hitsPerPage: HITS_PER_PAGE, preferSpecialty: group.subcategory }).hits : [];
  const { db } = await database();
  const counts = await nomineeCounts(
    db,
    survey.config.project_id,
    group,
    hits.map((hit) => hit.objectID),
  );
  // The group counts already for the nominee it is attached to: with it is now.
  const attachedTo = group.decision?.action !== 'reject' ? group.decision?.nominee_id : undefined;
  return {
    query,
    matches: hits.map((hit): WriteInMatchView => {
      const now = counts.get(hit.objectID) ?? 0;
      return { id: hit.objectID, name: hit.name, detail: detailOf(hit), now, with: attachedTo === hit.objectID ? now : now + group.count };
    }),
  };
}

/** A group as the page shows it: its decision with the nominee's name, and its ballots. */
function groupView(survey: ServerSurvey, group: QueueGroup): WriteInGroupView {
  const decision = group.decision;
  const index = decision?.nominee_id ? nomineeIndex(survey) : undefined;
  return {
    id: group.id,
    category: categoryKey(group.group, group.subcategory),
    subcategory: group.subcategory,
    name: group.name,
    count: group.count,
    spellings: group.spellings,
    ...(decision && decision.action !== 'undo'
      ? {
          decision: {
            action: decision.action,
            ...(decision.nominee_id ? { nomineeId: decision.nominee_id } : {}),
            ...(decision.nominee_name || index?.get(decision.nominee_id ?? '')
              ? { nomineeName: decision.nominee_name ?? index?.get(decision.nominee_id ?? '')?.name }
              : {}),
            by: decision.decided_by,
            at: decision.decided_at,
            ...(decision.note ? { why: decision.note } : {}),
          },
        }
      : {}),
    afterDecision: group.afterDecision,
    ballots: group.ballots.map(({ receivedAt, spelling, byItself, voter }) => ({ receivedAt, spelling, byItself, ...(voter !== undefined ? { voter } : {}) })),
  };
}

/** A group id as the page writes it in its addresses. */
const GROUP_ID = /^[0-9a-f]{16}$/;

/**
 * A page of a survey's write-ins for an operator who may decide on them (reviewer and up), as
 * the address asks for it: from the top, `after` or `before` a group (the next and previous
 * pages), or at `group` (with the nominee search when `q` is there), and `done` after an act;
 * 'forbidden' for an auditor; undefined for a survey they have no role on, as for one that does
 * not exist.
 */
export async function writeInsPage(visit: ConsoleVisit, slug: string, url: URL): Promise<WriteInsPageView | 'forbidden' | undefined> {
  const found = surveyOfOperator(visit.operator, slug);
  if (!found) return undefined;
  const { survey } = found;
  if (!may(visit.operator, 'review-writeins', survey.slug)) return 'forbidden';
  const { db } = await database();
  const projectId = survey.config.project_id;
  const seesVoters = may(visit.operator, 'see-voters', survey.slug);
  const mayDecide = may(visit.operator, 'review-writeins', survey.slug);
  const query = url.searchParams;
  const asked = query.get('group') ?? '';
  const id = (name: string) => (GROUP_ID.test(query.get(name) ?? '') ? (query.get(name) ?? undefined) : undefined);
  const place: QueuePlace = GROUP_ID.test(asked) ? { at: asked } : id('before') ? { before: id('before') } : id('after') ? { after: id('after') } : {};
  const [totals, rows] = await Promise.all([queueTotals(db, projectId), queueRows(db, projectId, place, PAGE_SIZE)]);
  const page = await queueGroups(db, survey.config, rows.rows, seesVoters);
  const searched = place.at && query.has('q') && mayDecide ? page.find((group) => group.id === asked) : undefined;
  const search = searched ? await searchOn(survey, searched, query.get('q') ?? '') : undefined;
  const groups = page.map((group) => ({ ...groupView(survey, group), ...(group === searched && search ? { search } : {}) }));
  const path = writeInsPath(survey.slug);
  const done = doneWords(
    query.get('done') ?? '',
    groups.find((group) => group.id === asked),
  );
  return {
    slug: survey.slug,
    title: survey.config.survey_title ?? survey.slug,
    path,
    mayDecide,
    seesVoters,
    groupCount: totals.groups,
    waitingGroups: totals.waitingGroups,
    writeIns: totals.writeIns,
    waitingWriteIns: totals.waitingWriteIns,
    groups,
    first: rows.offset + 1,
    ...(rows.earlier && groups.length ? { previous: `${path}?${new URLSearchParams({ before: groups[0].id })}` } : {}),
    ...(rows.later && groups.length ? { next: `${path}?${new URLSearchParams({ after: groups.at(-1)!.id })}` } : {}),
    ...(done ? { done } : {}),
    reasonMax: ADMIT_REASON_MAX,
    nameMax: NEW_NOMINEE_NAME_MAX,
  };
}
