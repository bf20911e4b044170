import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { BallotRow } from '../../server/db/ballots.table.ts';
import type { AnswerRow } from '../../server/db/answers.table.ts';
import type { NominationRow } from '../../server/db/nominations.table.ts';
import type { WriteInRow } from '../../server/db/write-ins.table.ts';
import type { ReservationRow } from '../../server/db/reservations.table.ts';
import type { UploadRow } from '../../server/db/uploads.table.ts';

/** A ballot with everything stored with it, children in their stored order. */
export interface FullBallot extends BallotRow {
  answers: AnswerRow[];
  nominations: NominationRow[];
  writeIns: WriteInRow[];
  reservations: ReservationRow[];
  uploads: UploadRow[];
}

/** Which children to read: all answers, or only some fields' (the tally needs the voter's); no reservations or uploads. */
export interface PageOptions {
  pageSize?: number;
  answerFields?: readonly string[];
  full?: boolean;
}

/** Ballots read per page: enough to keep the round trips few, few enough that memory does not grow with the survey. */
const PAGE_SIZE = 2000;

function group<T extends { ballot_id: string }>(rows: T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const list = map.get(row.ballot_id);
    if (list) list.push(row);
    else map.set(row.ballot_id, [row]);
  }
  return map;
}

/** How many ballots a survey has. */
export async function countBallots(db: Kysely<Database>, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('ballots')
    .where('project_id', '=', projectId)
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * A survey's ballots in the order they were received (time, then id), a page at a time, each
 * with its children. Keyset pagination on (created_at, id), which the ballots' index serves:
 * every page costs the same however deep, memory holds one page, and it runs alike on SQLite
 * and PostgreSQL. (Kysely's `.stream()` would need the pg-cursor package on PostgreSQL, and on
 * SQLite it holds the one connection, so the children could not be read beside it.)
 */
export async function* ballotPages(db: Kysely<Database>, projectId: string, options: PageOptions = {}): AsyncGenerator<FullBallot[]> {
  const pageSize = options.pageSize ?? PAGE_SIZE;
  let after: { createdAt: string; id: string } | undefined;
  for (;;) {
    let query = db.selectFrom('ballots').selectAll().where('project_id', '=', projectId);
    if (after) {
      const { createdAt, id } = after;
      query = query.where((eb) => eb.or([eb('created_at', '>', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '>', id)])]));
    }
    const ballots = await query.orderBy('created_at').orderBy('id').limit(pageSize).execute();
    if (ballots.length === 0) return;
    const ids = ballots.map((ballot) => ballot.id);
    let answersQuery = db.selectFrom('answers').selectAll().where('ballot_id', 'in', ids);
    if (options.answerFields)
      answersQuery = options.answerFields.length ? answersQuery.where('field', 'in', options.answerFields) : answersQuery.where('field', '=', '');
    const answers = group(await answersQuery.orderBy('ballot_id').orderBy('field').orderBy('position').execute());
    const nominations = group(
      await db
        .selectFrom('nominations')
        .selectAll()
        .where('ballot_id', 'in', ids)
        .orderBy('ballot_id')
        .orderBy('category_group')
        .orderBy('subcategory')
        .orderBy('slot')
        .execute(),
    );
    const writeIns = group(await db.selectFrom('write_ins').selectAll().where('ballot_id', 'in', ids).orderBy('ballot_id').orderBy('position').execute());
    const reservations = options.full
      ? group(await db.selectFrom('reservations').selectAll().where('ballot_id', 'in', ids).orderBy('ballot_id').orderBy('field').execute())
      : new Map();
    const uploads = options.full
      ? group(await db.selectFrom('uploads').selectAll().where('ballot_id', 'in', ids).orderBy('ballot_id').orderBy('field').execute())
      : new Map();
    yield ballots.map((ballot) => ({
      ...ballot,
      answers: answers.get(ballot.id) ?? [],
      nominations: nominations.get(ballot.id) ?? [],
      writeIns: writeIns.get(ballot.id) ?? [],
      reservations: reservations.get(ballot.id) ?? [],
      uploads: uploads.get(ballot.id) ?? [],
    }));
    const last = ballots[ballots.length - 1];
    after = { createdAt: last.created_at, id: last.id };
  }
}
