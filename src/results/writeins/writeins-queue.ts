import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { WriteInDecisionRow } from '../../server/db/tables/write-in-decisions.table.ts';
import type { WriteInGroupRow } from '../../server/db/tables/write-in-groups.table.ts';
import type { SurveyConfig } from '../../survey/config/config.struct.ts';
import { voterFields } from '../../survey/people/voter.ts';

// The write-ins as a queue to work through, for the console's write-ins page: the groups the API
// counts as it stores each ballot (write_in_groups: the folded name and sub-category `writeins`
// groups by, and the decision in force), those waiting first, then the most written, read a page
// at a time by keyset from their index; each with its spellings and newest ballots; and a
// nominee's count in a sub-category before and after a group is attached.

/** The ballots a group shows: its newest ones; the group's count says how many there are. */
const BALLOTS_SHOWN = 10;

/** One ballot a group came from: when it was received, the spelling it holds, and (for a manager and up) the voter's name. */
interface QueueBallot {
  ballotId: string;
  receivedAt: string;
  spelling: string;
  /** Received after the group's decision: it counts by that decision with no new one. */
  byItself: boolean;
  voter?: string;
}

/** A group of the queue: its sub-category and folded name, its spellings, its decision in force, its newest ballots and how many came after its decision. */
export interface QueueGroup {
  /** A short stable id (write_in_groups.id), for anchors and addresses. */
  id: string;
  group: string;
  subcategory: string;
  nameKey: string;
  /** The spelling most voters used. */
  name: string;
  count: number;
  spellings: Array<{ name: string; count: number }>;
  decision?: WriteInDecisionRow;
  ballots: QueueBallot[];
  /** Write-ins received after the decision in force, counted by it by themselves. */
  afterDecision: number;
}

/** Where a page of the queue starts: at its top, just after or just before a group, or at a group (by their ids). */
export type QueuePlace = { after?: string; before?: string; at?: string };

/** A group's place in the queue's order: waiting first, then the most written, then by folded name and sub-category. */
type QueueKey = Pick<WriteInGroupRow, 'decided' | 'writes' | 'name_key' | 'category_group' | 'subcategory'>;

/** The groups after `key` in the queue's order (before it when `later` is false), as one condition. */
function beyond(eb: ExpressionBuilder<Database, 'write_in_groups'>, key: QueueKey, later: boolean): Expression<SqlBool> {
  const rest = eb(eb.refTuple('name_key', 'category_group', 'subcategory'), later ? '>' : '<', eb.tuple(key.name_key, key.category_group, key.subcategory));
  return eb.or([
    eb('decided', later ? '>' : '<', key.decided),
    eb.and([eb('decided', '=', key.decided), eb.or([eb('writes', later ? '<' : '>', key.writes), eb.and([eb('writes', '=', key.writes), rest])])]),
  ]);
}

/** A survey's groups in the queue's order, or the reverse, from the index write_in_groups_queue. */
function inOrder(db: Kysely<Database>, projectId: string, forward: boolean) {
  const way = forward ? 'asc' : 'desc';
  const back = forward ? 'desc' : 'asc';
  return db
    .selectFrom('write_in_groups')
    .where('project_id', '=', projectId)
    .orderBy('decided', way)
    .orderBy('writes', back)
    .orderBy('name_key', way)
    .orderBy('category_group', way)
    .orderBy('subcategory', way);
}

/** A group of a survey by its id, or undefined. */
async function queueGroupById(db: Kysely<Database>, projectId: string, id: string): Promise<WriteInGroupRow | undefined> {
  return db.selectFrom('write_in_groups').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

/** A survey's groups and write-ins, all and those waiting, counted from the queue's index. */
export async function queueTotals(db: Kysely<Database>, projectId: string) {
  const rows = await db
    .selectFrom('write_in_groups')
    .where('project_id', '=', projectId)
    .select(['decided', (eb) => eb.fn.countAll<string | number>().as('groups'), (eb) => eb.fn.sum<string | number>('writes').as('writes')])
    .groupBy('decided')
    .execute();
  const totals = { groups: 0, waitingGroups: 0, writeIns: 0, waitingWriteIns: 0 };
  for (const row of rows) {
    totals.groups += Number(row.groups);
    totals.writeIns += Number(row.writes ?? 0);
    if (Number(row.decided) === 0) {
      totals.waitingGroups += Number(row.groups);
      totals.waitingWriteIns += Number(row.writes ?? 0);
    }
  }
  return totals;
}

/**
 * `size` groups of the queue from `place`, by keyset on the queue's index; whether there are
 * groups before and after them; and how many groups come before the first.
 */
export async function queueRows(
  db: Kysely<Database>,
  projectId: string,
  place: QueuePlace,
  size: number,
): Promise<{ rows: WriteInGroupRow[]; earlier: boolean; later: boolean; offset: number }> {
  const cursorId = place.before ?? place.after ?? place.at;
  const cursor = cursorId ? await queueGroupById(db, projectId, cursorId) : undefined;
  let rows: WriteInGroupRow[];
  let earlier: boolean;
  let later: boolean;
  if (cursor && place.before) {
    const found = await inOrder(db, projectId, false)
      .selectAll()
      .where((eb) => beyond(eb, cursor, false))
      .limit(size + 1)
      .execute();
    earlier = found.length > size;
    rows = found.slice(0, size).reverse();
    later = true;
  } else {
    let query = inOrder(db, projectId, true).selectAll();
    if (cursor && place.after) query = query.where((eb) => beyond(eb, cursor, true));
    // At a group: the page starts with it.
    if (cursor && place.at) query = query.where((eb) => eb.not(beyond(eb, cursor, false)));
    const found = await query.limit(size + 1).execute();
    later = found.length > size;
    rows = found.slice(0, size);
    earlier = Boolean(cursor);
  }
  let offset = 0;
  if (rows.length && (earlier || cursor)) {
    const first = rows[0];
    const { n } = await db
      .selectFrom('write_in_groups')
      .where('project_id', '=', projectId)
      .where((eb) => beyond(eb, first, false))
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    offset = Number(n);
    earlier = offset > 0;
  }
  return { rows, earlier, later, offset };
}

/** The newest ballots of a group (by id: a UUIDv7 sorts as the ballots arrived), from the index write_ins_group, tagged with the group's place `n`. */
function newestBallots(db: Kysely<Database>, projectId: string, group: WriteInGroupRow, n: number) {
  return db
    .selectFrom((from) =>
      from
        .selectFrom('write_ins')
        .innerJoin('ballots', 'ballots.id', 'write_ins.ballot_id')
        .where('write_ins.name_key', '=', group.name_key)
        .where('write_ins.category_group', '=', group.category_group)
        .where('write_ins.subcategory', '=', group.subcategory)
        .where('ballots.project_id', '=', projectId)
        .where('ballots.link', '!=', 'demo')
        .select(['ballots.id', 'ballots.created_at', 'write_ins.name', sql.lit(n).as('n')])
        .orderBy('write_ins.ballot_id', 'desc')
        .limit(BALLOTS_SHOWN)
        .as(`group${n}`),
    )
    .selectAll();
}

/** The newest ballots of each group, in one query (one round trip, not one a group), by the groups' places. */
async function groupsBallots(db: Kysely<Database>, projectId: string, groups: readonly WriteInGroupRow[]) {
  const found: Array<Array<{ id: string; created_at: string; name: string }>> = groups.map(() => []);
  if (!groups.length) return found;
  const query = groups.slice(1).reduce((all, group, n) => all.unionAll(newestBallots(db, projectId, group, n + 1)), newestBallots(db, projectId, groups[0], 0));
  for (const row of await query.execute()) found[Number(row.n)].push(row);
  for (const list of found) list.sort((a, b) => (a.id < b.id ? 1 : -1));
  return found;
}

/** The voters' names of some ballots, from the survey's name fields, by ballot id. */
async function voterNames(db: Kysely<Database>, config: SurveyConfig, ballotIds: string[]): Promise<Map<string, string>> {
  const fields = voterFields(config).name;
  if (!fields.length || !ballotIds.length) return new Map();
  const rows = await db
    .selectFrom('answers')
    .select(['ballot_id', 'field', 'value'])
    .where('ballot_id', 'in', ballotIds)
    .where('field', 'in', fields)
    .orderBy('ballot_id')
    .orderBy('position')
    .execute();
  const words = new Map<string, string[]>();
  for (const row of rows) words.set(`${row.ballot_id}\u0000${row.field}`, [...(words.get(`${row.ballot_id}\u0000${row.field}`) ?? []), row.value]);
  const names = new Map<string, string>();
  for (const id of ballotIds)
    names.set(
      id,
      fields
        .flatMap((field) => words.get(`${id}\u0000${field}`) ?? [])
        .join(' ')
        .trim(),
    );
  return names;
}

/** The key a group's spellings are gathered under. */
const spellingsKey = (group: string, subcategory: string, nameKey: string) => `${group}\u0000${subcategory}\u0000${nameKey}`;

/**
 * Groups of the queue as the page shows them: each with its spellings (most written first), its
 * decision in force, how many came after it, and its newest ballots (the voter's name when
 * `seesVoters`).
 */
export async function queueGroups(db: Kysely<Database>, config: SurveyConfig, rows: readonly WriteInGroupRow[], seesVoters: boolean): Promise<QueueGroup[]> {
  if (!rows.length) return [];
  const projectId = config.project_id;
  const decisionIds = rows.flatMap((row) => (row.decision_id ? [row.decision_id] : []));
  const [spellingRows, decisionRows, ballotRows] = await Promise.all([
    db
      .selectFrom('write_in_spellings')
      .select(['category_group', 'subcategory', 'name_key', 'name', 'writes'])
      .where('project_id', '=', projectId)
      .where('name_key', 'in', [...new Set(rows.map((row) => row.name_key))])
      .where('writes', '>', 0)
      .execute(),
    decisionIds.length ? db.selectFrom('write_in_decisions').selectAll().where('id', 'in', decisionIds).execute() : [],
    groupsBallots(db, projectId, rows),
  ]);
  const spellings = new Map<string, Array<{ name: string; count: number }>>();
  for (const row of spellingRows) {
    const key = spellingsKey(row.category_group, row.subcategory, row.name_key);
    spellings.set(key, [...(spellings.get(key) ?? []), { name: row.name, count: Number(row.writes) }]);
  }
  const decisions = new Map(decisionRows.map((row) => [row.id, row]));
  const names = seesVoters
    ? await voterNames(
        db,
        config,
        ballotRows.flat().map((row) => row.id),
      )
    : undefined;
  return rows.map((row, n): QueueGroup => {
    const spelled = (spellings.get(spellingsKey(row.category_group, row.subcategory, row.name_key)) ?? []).sort(
      (a, b) => b.count - a.count || (a.name < b.name ? -1 : 1),
    );
    const decision = row.decision_id ? decisions.get(row.decision_id) : undefined;
    const decidedAt = decision?.decided_at;
    return {
      id: row.id,
      group: row.category_group,
      subcategory: row.subcategory,
      nameKey: row.name_key,
      name: spelled[0]?.name ?? row.name_key,
      count: Number(row.writes),
      spellings: spelled,
      ...(decision ? { decision } : {}),
      afterDecision: Number(row.since_decision),
      ballots: ballotRows[n].map((ballot) => ({
        ballotId: ballot.id,
        receivedAt: ballot.created_at,
        spelling: ballot.name,
        byItself: decidedAt !== undefined && ballot.created_at > decidedAt,
        ...(names ? { voter: names.get(ballot.id) ?? '' } : {}),
      })),
    };
  });
}

/**
 * Each nominee's count in one sub-category as the tally starts from it, before its rules
 * (repeats, self-votes, exclusions): the nominations on the survey's current ballots, and the
 * write-ins of the groups attached to it there.
 */
export async function nomineeCounts(
  db: Kysely<Database>,
  projectId: string,
  where: { group: string; subcategory: string },
  nomineeIds: readonly string[],
): Promise<Map<string, number>> {
  const counts = new Map(nomineeIds.map((id) => [id, 0]));
  if (!nomineeIds.length) return counts;
  const [nominated, attached] = await Promise.all([
    db
      .selectFrom('nominations')
      .innerJoin('ballots', 'ballots.id', 'nominations.ballot_id')
      .where('nominations.nominee_id', 'in', [...nomineeIds])
      .where('nominations.category_group', '=', where.group)
      .where('nominations.subcategory', '=', where.subcategory)
      .where('ballots.project_id', '=', projectId)
      .where('ballots.link', '!=', 'demo')
      .where('ballots.replaced_by', 'is', null)
      .select(['nominations.nominee_id', (eb) => eb.fn.countAll<string | number>().as('n')])
      .groupBy('nominations.nominee_id')
      .execute(),
    db
      .selectFrom('write_in_groups')
      .where('project_id', '=', projectId)
      .where('nominee_id', 'in', [...nomineeIds])
      .where('category_group', '=', where.group)
      .where('subcategory', '=', where.subcategory)
      .select(['nominee_id', (eb) => eb.fn.sum<string | number>('writes').as('n')])
      .groupBy('nominee_id')
      .execute(),
  ]);
  for (const row of [...nominated, ...attached]) if (row.nominee_id) counts.set(row.nominee_id, (counts.get(row.nominee_id) ?? 0) + Number(row.n));
  return counts;
}
