import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { ReservationRow } from '../../server/db/tables/reservations.table.ts';
import type { LoadedSurvey } from '../../survey/config/loader.ts';
import type { Nominee } from '../../survey/nominees/nominee.struct.ts';
import { allFields, ballotSlots, slotPlaces } from '../../survey/config/layout.ts';
import { exportColumns, isKind } from '../../survey/config/fields.ts';
import { categoryKey } from '../../survey/ballots/ballot-keys.ts';
import { decisionKey, writeInDecisionsInForce } from '../writeins/writeins.repository.ts';
import { childRows, nominationRows, readBallots, type StoredBallot } from '../ballots/ballot-reader.ts';
import { csvLine } from './csv.ts';
import { mostWriteIns, reservationDecisions, tileClaims } from './export.repository.ts';
import { nameKey } from '../../survey/nominees/name-key.ts';

/** The name column of a nomination whose id is on neither the list nor a write-in decision. */
const NOT_ON_LIST = '(not on the list)';

/** The export's two formats: CSV, one line per ballot; JSON Lines, one object per ballot. */
export type ExportFormat = 'csv' | 'jsonl';

/** What became of a reservation by now: `held` by its ballot, `confirmed` or `released` by an operator, `expired` (an Experts hold), `lost` to another ballot, or `custom` text. */
type ReservationOutcome = 'held' | 'confirmed' | 'released' | 'expired' | 'lost' | 'custom';

/** What an export needs besides the database. */
export interface ExportInput {
  survey: LoadedSurvey;
  nominees: readonly Nominee[];
  format: ExportFormat;
  /** Writes a piece of the output; resolves when the stream can take more. */
  write: (text: string) => Promise<void> | void;
  onProgress?: (ballots: number) => void;
  now?: Date;
  pageSize?: number;
}

/** How the reservations of a survey stand: claims and operators' decisions, by tile. */
async function reservationState(db: Kysely<Database>, projectId: string) {
  const claims = await tileClaims(db, projectId);
  const decisions = await reservationDecisions(db, projectId);
  const claimOf = new Map(claims.map((claim) => [`${claim.kind}\u0000${claim.tile}`, claim]));
  const confirmed = new Set<string>();
  const released = new Set<string>();
  for (const decision of decisions) {
    const key = `${decision.kind}\u0000${decision.tile}\u0000${decision.ballot_id}`;
    if (decision.action === 'confirmed') {
      confirmed.add(key);
    } else {
      released.add(key);
      confirmed.delete(key);
    }
  }
  return (reservation: ReservationRow, now: Date): ReservationOutcome => {
    if (reservation.status !== 'reserved' || reservation.tile === null) return reservation.status === 'lost' ? 'lost' : 'custom';
    const key = `${reservation.kind}\u0000${reservation.tile}\u0000${reservation.ballot_id}`;
    const claim = claimOf.get(`${reservation.kind}\u0000${reservation.tile}`);
    if (claim?.ballot_id === reservation.ballot_id) {
      if (confirmed.has(key)) return 'confirmed';
      return claim.expires_at !== null && claim.expires_at <= now.toISOString() ? 'expired' : 'held';
    }
    return released.has(key) ? 'released' : 'expired';
  };
}

/**
 * Writes every ballot of a survey, in the order received, as CSV (a header, then a line per
 * ballot: answers, each nomination slot's id and name, write-ins with the nominee a decision
 * counts them for (as many as the ballot with the most has, however low `write_in_limit` is
 * now), reservations with their outcome, file names) or JSON Lines. A page of
 * ballots at a time, waiting for the output to drain: memory does not grow with the survey.
 */
export async function exportBallots(db: Kysely<Database>, input: ExportInput): Promise<number> {
  const { config } = input.survey;
  const now = input.now ?? new Date();
  const names = new Map(input.nominees.map((nominee) => [nominee.id, nominee.name]));
  const decisions = await writeInDecisionsInForce(db, config.project_id);
  for (const decision of decisions.values())
    if (decision.nominee_id && decision.nominee_name && !names.has(decision.nominee_id)) names.set(decision.nominee_id, decision.nominee_name);
  const outcome = await reservationState(db, config.project_id);
  const fields = allFields(config.layout);
  const answerFields = fields.filter((field) => isKind(field, 'answer')).flatMap(exportColumns);
  const reservationFields = fields.filter((field) => isKind(field, 'reservation')).map((field) => field.name);
  const fileFields = fields.filter((field) => isKind(field, 'file')).map((field) => field.name);
  const slots = ballotSlots(config);
  // As many write-in columns as the ballot with the most has: lowering `write_in_limit` after ballots came in drops none.
  const writeInColumns = Math.max(config.write_in_limit, await mostWriteIns(db, config.project_id));
  const writeInOf = (group: string, subcategory: string, name: string) => decisions.get(decisionKey(group, subcategory, nameKey(name)))?.nominee_id ?? '';

  if (input.format === 'csv') {
    await input.write(
      csvLine([
        'ballot_id',
        'submitted_at',
        'link',
        'personal_secret',
        'status',
        'verified_email',
        ...answerFields,
        ...slots.flatMap(({ group, subcategory, slot }) => [
          `${categoryKey(group, subcategory)} #${slot} id`,
          `${categoryKey(group, subcategory)} #${slot} name`,
        ]),
        ...Array.from({ length: writeInColumns }, (_, i) => [`write-in #${i + 1} name`, `write-in #${i + 1} category`, `write-in #${i + 1} nominee_id`]).flat(),
        ...fields.filter((field) => isKind(field, 'reservation')).flatMap(exportColumns),
        ...fields.filter((field) => isKind(field, 'file')).flatMap(exportColumns),
      ]),
    );
  }

  // Each slot's place among the slot columns; a stored slot the survey no longer has gets no column.
  const slotAt = slotPlaces(config);
  const reservationsOf = (ballot: StoredBallot) =>
    childRows<[string, string, string | null, string | null, ReservationRow['status']]>(ballot.children.reservations).map(
      ([field, kind, tile, custom_text, status]): ReservationRow => ({ ballot_id: ballot.id, field, kind, tile, custom_text, status }),
    );
  const uploadsOf = (ballot: StoredBallot) =>
    childRows<[string, string, string, string, number]>(ballot.children.uploads).map(([field, original_name, id, content_type, size]) => ({
      field,
      original_name,
      id,
      content_type,
      size,
    }));

  // A ballot's answers, one JSON list per ballot, into the answer columns: a field's values joined by "; " in their order.
  const answerColumn = new Map(answerFields.map((field, i) => [field, i]));
  const answerCells = (ballot: StoredBallot) => {
    const cells: Array<string | undefined> = new Array(answerFields.length);
    for (const [field, value] of childRows<[string, string]>(ballot.children.answers)) {
      const i = answerColumn.get(field);
      if (i !== undefined) cells[i] = cells[i] === undefined ? value : `${cells[i]}; ${value}`;
    }
    return cells;
  };

  // A line's cells go into one list, place by place: a million lines built from spread pieces spent seconds copying them.
  const csvOf = (ballot: StoredBallot) => {
    const cells: Array<string | undefined | null> = [ballot.id, ballot.created_at, ballot.link, ballot.personal_secret, ballot.status, ballot.verified_email];
    for (const cell of answerCells(ballot)) cells.push(cell);
    const slotsFrom = cells.length;
    cells.length += slots.length * 2;
    for (const [group, subcategory, slot, id] of nominationRows(ballot.children.nominations)) {
      const at = slotAt(group, subcategory, slot);
      if (at === undefined) continue;
      cells[slotsFrom + at * 2] = id;
      // An id off the list (the tally excludes it as not_on_list) says so where its name would be.
      cells[slotsFrom + at * 2 + 1] = names.get(id) ?? NOT_ON_LIST;
    }
    const writeIns = childRows<[string, string, string]>(ballot.children.writeIns);
    for (let i = 0; i < writeInColumns; i++) {
      const w = writeIns[i];
      if (w) cells.push(w[2], categoryKey(w[0], w[1]), writeInOf(w[0], w[1], w[2]));
      else cells.push(undefined, undefined, undefined);
    }
    const reservations = reservationsOf(ballot);
    for (const field of reservationFields) {
      const r = reservations.findLast((reservation) => reservation.field === field);
      if (r) cells.push(r.tile ?? r.custom_text, r.status, outcome(r, now));
      else cells.push(undefined, undefined, undefined);
    }
    const uploads = uploadsOf(ballot);
    for (const field of fileFields) {
      const u = uploads.findLast((upload) => upload.field === field);
      cells.push(u?.original_name, u?.id);
    }
    return csvLine(cells);
  };

  const jsonOf = (ballot: StoredBallot) => {
    const answers: Record<string, string | string[]> = {};
    for (const [field, value] of childRows<[string, string]>(ballot.children.answers)) {
      const before = answers[field];
      answers[field] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
    }
    return `${JSON.stringify({
      ballot_id: ballot.id,
      submitted_at: ballot.created_at,
      link: ballot.link,
      personal_secret: ballot.personal_secret,
      status: ballot.status,
      replaced_by: ballot.replaced_by,
      verified_email: ballot.verified_email,
      answers,
      nominations: nominationRows(ballot.children.nominations).map(([category, subcategory, slot, id]) => ({
        category,
        subcategory,
        slot,
        nominee_id: id,
        nominee: names.get(id) ?? null,
      })),
      write_ins: childRows<[string, string, string]>(ballot.children.writeIns).map(([category, subcategory, name]) => ({
        name,
        category,
        subcategory,
        nominee_id: writeInOf(category, subcategory, name) || null,
      })),
      reservations: reservationsOf(ballot).map((r) => ({
        field: r.field,
        kind: r.kind,
        tile: r.tile,
        custom_text: r.custom_text,
        status: r.status,
        outcome: outcome(r, now),
      })),
      files: uploadsOf(ballot).map((u) => ({ field: u.field, name: u.original_name, stored_as: u.id, content_type: u.content_type, size: u.size })),
    })}\n`;
  };

  let count = 0;
  const children = ['nominations', 'writeIns', 'reservations', 'uploads'] as const;
  // All of a ballot's answers in one list rather than a query per field: a survey asks a dozen questions and a voter answers a few.
  const rows = readBallots(db, config.project_id, { pageSize: input.pageSize, answerFields: [], children: ['answers', ...children] });
  for await (const page of rows) {
    let chunk = '';
    for (const ballot of page) chunk += input.format === 'csv' ? csvOf(ballot) : jsonOf(ballot);
    await input.write(chunk);
    count += page.length;
    input.onProgress?.(count);
  }
  return count;
}
