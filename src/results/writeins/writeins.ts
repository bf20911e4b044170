import type { Kysely } from 'kysely';
import { appendAudit, type ActSigner } from '../../server/db/audit.repository.ts';
import type { Database } from '../../server/db/schema.ts';
import type { WriteInDecisionRow } from '../../server/db/tables/write-in-decisions.table.ts';
import type { SurveyConfig } from '../../survey/config/config.struct.ts';
import type { Nominee } from '../../survey/nominees/nominee.struct.ts';
import { ballotCategories } from '../../survey/config/layout.ts';
import { categoryKey } from '../../survey/ballots/ballot-keys.ts';
import { decisionKey, recordWriteInDecision, writeInDecisionLog, writeInDecisionsInForce, writeInSpellings } from './writeins.repository.ts';
import { uuidv7 } from '../../server/ids.ts';
import { markWriteInGroups } from '../../server/intake/write-in-counts.repository.ts';
import { nameKey } from '../../survey/nominees/name-key.ts';
import { nameMatcher } from './fuzzy.ts';
import { OperatorError } from '../operator.ts';
import { quoted } from '../../survey/errors.ts';

/** The write-ins of one name in one sub-category: how often, as which spellings, and what was decided. */
export interface WriteInGroup {
  group: string;
  subcategory: string;
  nameKey: string;
  /** The spelling most voters used. */
  name: string;
  count: number;
  spellings: Array<{ name: string; count: number }>;
  decision?: WriteInDecisionRow;
  candidates: Array<{ id: string; name: string; specialty?: string; practice?: string; similarity: number }>;
}

/** Write-ins of a survey grouped by normalised name and sub-category, most frequent first; demo ballots left out. */
export async function writeInGroups(db: Kysely<Database>, config: SurveyConfig, nominees: readonly Nominee[], candidates = 3): Promise<WriteInGroup[]> {
  const rows = await writeInSpellings(db, config.project_id);
  const decisions = await writeInDecisionsInForce(db, config.project_id);
  return groupsOf(rows, decisions, nominees, candidates);
}

/** Spelling counts gathered into their groups, each with its decision in force and its closest nominees, most frequent first. */
function groupsOf(
  rows: Awaited<ReturnType<typeof writeInSpellings>>,
  decisions: Map<string, WriteInDecisionRow>,
  nominees: readonly Nominee[],
  candidates: number,
): WriteInGroup[] {
  const groups = new Map<string, WriteInGroup>();
  for (const row of rows) {
    const key = row.name_key;
    const id = decisionKey(row.category_group, row.subcategory, key);
    let group = groups.get(id);
    if (!group) {
      group = {
        group: row.category_group,
        subcategory: row.subcategory,
        nameKey: key,
        name: row.name,
        count: 0,
        spellings: [],
        decision: decisions.get(id),
        candidates: [],
      };
      groups.set(id, group);
    }
    group.count += Number(row.n);
    group.spellings.push({ name: row.name, count: Number(row.n) });
  }
  const matcher = nameMatcher(nominees, (nominee) => nominee.name);
  const list = [...groups.values()];
  for (const group of list) {
    group.spellings.sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : 1));
    group.name = group.spellings[0].name;
    group.candidates = matcher
      .closest(group.name, candidates)
      .map(({ item, similarity }) => ({ id: item.id, name: item.name, specialty: item.specialty, practice: item.practice, similarity }));
  }
  return list.sort(
    (a, b) => b.count - a.count || a.nameKey.localeCompare(b.nameKey) || categoryKey(a.group, a.subcategory).localeCompare(categoryKey(b.group, b.subcategory)),
  );
}

/** What the operator decides for a write-in; `undo` takes back the decision in force, and the write-in waits again. */
export type Resolution =
  | { action: 'merge'; nomineeId: string }
  | { action: 'new'; nomineeId?: string; name?: string; specialty?: string; practice?: string; city?: string }
  | { action: 'reject' }
  | { action: 'undo' };

/**
 * A decision the write-in has already (or, for `undo`, none to take back): recording it again
 * would change nothing, so nothing is recorded. `recorded` says who made it and when, when that
 * same decision is on record (an undo too); absent for an undo of a write-in never decided.
 */
export class DecidedAlready extends OperatorError {
  readonly recorded?: { by: string; at: string };
  constructor(message: string, recorded?: { by: string; at: string }) {
    super(message);
    this.name = 'DecidedAlready';
    if (recorded) this.recorded = recorded;
  }
}

/** Another decision made on a write-in since it was seen waiting (the console's page): recording one over it is refused. */
export class DecidedOtherwise extends OperatorError {
  constructor(message: string) {
    super(message);
    this.name = 'DecidedOtherwise';
  }
}

/** A decision to record: which write-in (name, and sub-category or every one it was written in), what, by whom. */
export interface ResolveRequest {
  name: string;
  /** `Group / Sub-category`; every sub-category the name was written in when left out. */
  category?: string;
  resolution: Resolution;
  /** Who decided, as the audit trail signs it: `--by` on the command line, the operator in the console. */
  by: ActSigner;
  note?: string;
  now?: Date;
  /** The write-in was seen waiting (the console's Attach and Add): refused, with DecidedOtherwise, when a decision has been made on it since. */
  seenWaiting?: boolean;
}

/** A new nominee's id made from the name: "Dr. Grace O'Neil" → "wi-grace-oneil", numbered when taken. */
function newNomineeId(name: string, taken: (id: string) => boolean): string {
  const base = `wi-${
    nameKey(name)
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 50) || 'nominee'
  }`;
  let id = base;
  for (let n = 2; taken(id); n++) id = `${base}-${n}`;
  return id;
}

/** When a decision was made, as the command line and the console say it. */
const whenWords = (decision: WriteInDecisionRow) => `${decision.decided_at.slice(0, 16).replace('T', ' ')} UTC`;

/** The sentence of a decision asked again: in force already, or undone already, by whom and when. */
function decidedWords(request: ResolveRequest, recorded: WriteInDecisionRow): string {
  const where = `${quoted(request.name)}${request.category ? ` in ${request.category}` : ''}`;
  if (recorded.action === 'undo')
    return `${where} was undone already, by ${recorded.decided_by} at ${whenWords(recorded)}, and waits for a decision: nothing changed.`;
  const what = recorded.action === 'reject' ? 'rejected' : `counted for ${recorded.nominee_id}`;
  return `${where} is ${what} already, decided by ${recorded.decided_by} at ${whenWords(recorded)}: nothing changed.`;
}

/** The latest decision on record for each write-in (an undo too), by `decisionKey`. */
async function latestDecisions(db: Kysely<Database>, projectId: string): Promise<Map<string, WriteInDecisionRow>> {
  const latest = new Map<string, WriteInDecisionRow>();
  for (const row of await writeInDecisionLog(db, projectId)) latest.set(decisionKey(row.category_group, row.subcategory, row.name_key), row);
  return latest;
}

/**
 * Records a decision on a write-in after checking it: the category exists, voters wrote that
 * name there, and a merge names a nominee on the list (or one a decision added). One row per
 * sub-category, in one transaction; throws an OperatorError, changing nothing, when a check fails.
 */
export async function resolveWriteIn(
  db: Kysely<Database>,
  config: SurveyConfig,
  nominees: readonly Nominee[],
  request: ResolveRequest,
): Promise<WriteInDecisionRow[]> {
  const key = nameKey(request.name);
  if (!key) throw new OperatorError(`The write-in name ${quoted(request.name)} has no letters to match.`);
  const categories = ballotCategories(config);
  let wanted = categories;
  if (request.category !== undefined) {
    wanted = categories.filter((category) => category.key === request.category!.trim());
    if (!wanted.length)
      throw new OperatorError(
        `"${request.category}" is not a category of ${config.project_id}; the categories are ${categories.map((c) => c.key).join(', ')}.`,
      );
  }
  const decisions = await writeInDecisionsInForce(db, config.project_id);
  // The groups of this folded name, from their counts: one index search, not the survey's every write-in.
  const groups = groupsOf(await writeInSpellings(db, config.project_id, key), decisions, [], 0).filter((group) =>
    wanted.some((w) => w.group === group.group && w.subcategory === group.subcategory),
  );
  if (!groups.length)
    throw new OperatorError(`No write-in ${quoted(request.name)}${request.category ? ` in ${request.category}` : ''}; the writeins command lists them.`);

  const listed = new Map(nominees.map((nominee) => [nominee.id, nominee]));
  const added = new Map([...decisions.values()].filter((d) => d.action === 'new' && d.nominee_id).map((d) => [d.nominee_id!, d]));
  const { resolution } = request;
  let fields: Pick<WriteInDecisionRow, 'action' | 'nominee_id' | 'nominee_name' | 'nominee_specialty' | 'nominee_practice' | 'nominee_city'>;
  if (resolution.action === 'merge') {
    const known = listed.has(resolution.nomineeId) || added.has(resolution.nomineeId);
    if (!known)
      throw new OperatorError(
        `Nominee id ${quoted(resolution.nomineeId)} is not on the nominee list of ${config.project_id}, nor added by a write-in decision.`,
      );
    fields = { action: 'merge', nominee_id: resolution.nomineeId, nominee_name: null, nominee_specialty: null, nominee_practice: null, nominee_city: null };
  } else if (resolution.action === 'new') {
    if (resolution.nomineeId && listed.has(resolution.nomineeId)) {
      throw new OperatorError(
        `Nominee id "${resolution.nomineeId}" is already on the nominee list (${listed.get(resolution.nomineeId)!.name}); merge into it with --nominee instead.`,
      );
    }
    if (resolution.nomineeId && !/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(resolution.nomineeId)) {
      throw new OperatorError(
        `"${resolution.nomineeId}" is not a valid nominee id: letters, digits, ".", "-" or "_", at most 64, starting with a letter or digit.`,
      );
    }
    const name = resolution.name?.trim() || groups[0].name.replace(/^\s*(dr|doctor|prof)\.?\s+/i, '').trim();
    // Deciding a write-in again keeps the id an earlier "new" decision gave it.
    const earlier = [...decisions.values()].find((d) => d.action === 'new' && d.name_key === key && d.nominee_id)?.nominee_id;
    const id = resolution.nomineeId ?? earlier ?? newNomineeId(name, (candidate) => listed.has(candidate) || added.has(candidate));
    fields = {
      action: 'new',
      nominee_id: id,
      nominee_name: name,
      nominee_specialty: resolution.specialty ?? null,
      nominee_practice: resolution.practice ?? null,
      nominee_city: resolution.city ?? null,
    };
  } else {
    if (resolution.action === 'undo' && !groups.some((group) => group.decision)) {
      // Undone already, when the latest decision on record for each is an undo: say whose; else never decided.
      const latest = await latestDecisions(db, config.project_id);
      const undos = groups.map((group) => latest.get(decisionKey(group.group, group.subcategory, key)));
      if (undos.every((row) => row?.action === 'undo')) {
        const newest = undos.reduce((a, b) => (b!.id > a!.id ? b : a))!;
        throw new DecidedAlready(decidedWords(request, newest), { by: newest.decided_by, at: newest.decided_at });
      }
      throw new DecidedAlready(`No decision to undo on ${quoted(request.name)}${request.category ? ` in ${request.category}` : ''}: it waits for one.`);
    }
    fields = { action: resolution.action, nominee_id: null, nominee_name: null, nominee_specialty: null, nominee_practice: null, nominee_city: null };
  }
  const now = request.now ?? new Date();
  // An undo takes back the decisions there are; a sub-category with none is left as it is.
  const decided = fields.action === 'undo' ? groups.filter((group) => group.decision) : groups;
  const rows: WriteInDecisionRow[] = decided.map((group) => ({
    id: uuidv7(now.getTime()),
    project_id: config.project_id,
    name_key: key,
    category_group: group.group,
    subcategory: group.subcategory,
    ...fields,
    nominee_specialty: fields.action === 'new' ? (fields.nominee_specialty ?? group.subcategory) : null,
    note: request.note ?? null,
    decided_by: request.by.actor,
    decided_at: now.toISOString(),
  }));
  await db.transaction().execute(async (trx) => {
    await appendAudit(trx, {
      projectId: config.project_id,
      ...request.by,
      action: fields.action === 'undo' ? 'writeins undo' : 'writeins resolve',
      subject: key,
      reason: request.note ?? null,
      details: { action: fields.action, nominee_id: fields.nominee_id, categories: rows.map((r) => categoryKey(r.category_group, r.subcategory)) },
      now,
    });
    // Read again once the trail is held (appendAudit holds it until the transaction ends): of two same decisions at once, the second finds the first here.
    const latest = await latestDecisions(trx, config.project_id);
    const inForce = (row: WriteInDecisionRow) => {
      const current = latest.get(decisionKey(row.category_group, row.subcategory, row.name_key));
      return current?.action === 'undo' ? undefined : current;
    };
    const same = (row: WriteInDecisionRow) => {
      const current = inForce(row);
      if (row.action === 'undo') return current === undefined;
      return current?.action === row.action && current.nominee_id === row.nominee_id && current.nominee_name === row.nominee_name;
    };
    if (rows.every(same)) {
      const recorded = rows
        .map((row) => latest.get(decisionKey(row.category_group, row.subcategory, row.name_key)))
        .filter((row): row is WriteInDecisionRow => row !== undefined)
        .sort((a, b) => (a.id < b.id ? 1 : -1))[0];
      if (!recorded)
        throw new DecidedAlready(`No decision to undo on ${quoted(request.name)}${request.category ? ` in ${request.category}` : ''}: it waits for one.`);
      throw new DecidedAlready(decidedWords(request, recorded), { by: recorded.decided_by, at: recorded.decided_at });
    }
    const otherwise = request.seenWaiting && fields.action !== 'undo' ? rows.map(inForce).find((current) => current !== undefined) : undefined;
    if (otherwise) {
      const what = otherwise.action === 'reject' ? 'rejected' : `attached to ${otherwise.nominee_name ?? otherwise.nominee_id}`;
      throw new DecidedOtherwise(
        `${quoted(request.name)} in ${categoryKey(otherwise.category_group, otherwise.subcategory)} was ${what} meanwhile, by ${otherwise.decided_by} at ${whenWords(otherwise)}: Undo that decision first to make another.`,
      );
    }
    for (const row of rows) await recordWriteInDecision(trx, row);
    await markWriteInGroups(trx, rows);
  });
  return rows;
}
