import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { SurveyConfig } from '../../survey/config/config.struct.ts';
import { voterFields } from '../../survey/people/voter.ts';
import { decisionKey } from './writeins.repository.ts';
import { writeInGroups, type WriteInGroup } from './writeins.ts';

// The write-ins as a queue to work through, for the console's write-ins page: the groups
// `writeins` lists (the same folding, nameKey, and the same decisions), those waiting first, a
// page at a time; each with the ballots it came from; and a nominee's count in a sub-category
// before and after a group is attached.

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

/** A group of the queue: what `writeins` shows of it, its anchor, its newest ballots and how many came after its decision. */
export interface QueueGroup extends Omit<WriteInGroup, 'candidates'> {
  /** A short stable id made from the group's sub-category and folded name, for anchors and addresses. */
  id: string;
  ballots: QueueBallot[];
  /** Write-ins received after the decision in force, counted by it by themselves. */
  afterDecision: number;
}

/** A group's short id: the first 16 hex digits of the SHA-256 of its decision key. */
export function groupId(group: Pick<WriteInGroup, 'group' | 'subcategory' | 'nameKey'>): string {
  return createHash('sha256')
    .update(decisionKey(group.group, group.subcategory, group.nameKey))
    .digest('hex')
    .slice(0, 16);
}

/** The queue's order: groups waiting for a decision first, then as `writeins` lists them (most written first). */
export function queueOrder<T extends { decision?: unknown }>(groups: readonly T[]): T[] {
  return [...groups.filter((group) => !group.decision), ...groups.filter((group) => group.decision)];
}

/** The ballots of a group, filtered as `writeins` counts them (the survey's, not demonstration ones). */
function groupRows(db: Kysely<Database>, projectId: string, group: WriteInGroup) {
  return db
    .selectFrom('write_ins')
    .innerJoin('ballots', 'ballots.id', 'write_ins.ballot_id')
    .where('write_ins.category_group', '=', group.group)
    .where('write_ins.subcategory', '=', group.subcategory)
    .where(
      'write_ins.name',
      'in',
      group.spellings.map((spelling) => spelling.name),
    )
    .where('ballots.project_id', '=', projectId)
    .where('ballots.link', '!=', 'demo');
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
  const names = new Map<string, string>();
  for (const id of ballotIds) {
    const words = fields.flatMap((field) => rows.filter((row) => row.ballot_id === id && row.field === field).map((row) => row.value));
    names.set(id, words.join(' ').trim());
  }
  return names;
}

/** Every write-in group of a survey in the queue's order, with its decision in force: what `writeins` lists, those waiting first. */
export async function writeInQueue(db: Kysely<Database>, config: SurveyConfig): Promise<WriteInGroup[]> {
  return queueOrder(await writeInGroups(db, config, [], 0));
}

/**
 * A page of the queue: `size` groups of `all` from `offset`, each with its newest ballots (the
 * voter's name when `seesVoters`) and how many came after its decision.
 */
export async function queuePage(
  db: Kysely<Database>,
  config: SurveyConfig,
  all: readonly WriteInGroup[],
  place: { offset: number; size: number; seesVoters: boolean },
): Promise<QueueGroup[]> {
  const projectId = config.project_id;
  return Promise.all(
    all.slice(place.offset, place.offset + place.size).map(async (group): Promise<QueueGroup> => {
      const [rows, after] = await Promise.all([
        groupRows(db, projectId, group)
          .select(['ballots.id', 'ballots.created_at', 'write_ins.name'])
          .orderBy('ballots.created_at', 'desc')
          .orderBy('ballots.id', 'desc')
          .limit(BALLOTS_SHOWN)
          .execute(),
        group.decision
          ? groupRows(db, projectId, group)
              .where('ballots.created_at', '>', group.decision.decided_at)
              .select((eb) => eb.fn.countAll<string | number>().as('n'))
              .executeTakeFirstOrThrow()
          : { n: 0 },
      ]);
      const names = place.seesVoters
        ? await voterNames(
            db,
            config,
            rows.map((row) => row.id),
          )
        : undefined;
      const decidedAt = group.decision?.decided_at;
      const { candidates: _none, ...shown } = group;
      return {
        ...shown,
        id: groupId(group),
        afterDecision: Number(after.n),
        ballots: rows.map((row) => ({
          ballotId: row.id,
          receivedAt: row.created_at,
          spelling: row.name,
          byItself: decidedAt !== undefined && row.created_at > decidedAt,
          ...(names ? { voter: names.get(row.id) ?? '' } : {}),
        })),
      };
    }),
  );
}

/**
 * Each nominee's count in one sub-category as the tally starts from it, before its rules
 * (repeats, self-votes, exclusions): the nominations on the survey's current ballots, and the
 * write-ins attached to it there. `all` is the survey's groups, as writeInQueue gives them.
 */
export async function nomineeCounts(
  db: Kysely<Database>,
  projectId: string,
  where: { group: string; subcategory: string },
  nomineeIds: readonly string[],
  all: readonly WriteInGroup[],
): Promise<Map<string, number>> {
  const counts = new Map(nomineeIds.map((id) => [id, 0]));
  if (!nomineeIds.length) return counts;
  const rows = await db
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
    .execute();
  for (const row of rows) counts.set(row.nominee_id, Number(row.n));
  for (const group of all) {
    const id = group.decision?.nominee_id;
    if (id && counts.has(id) && group.group === where.group && group.subcategory === where.subcategory && group.decision?.action !== 'reject')
      counts.set(id, (counts.get(id) ?? 0) + group.count);
  }
  return counts;
}
