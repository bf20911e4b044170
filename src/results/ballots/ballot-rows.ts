import { Worker } from 'node:worker_threads';
import type { SQLInputValue } from 'node:sqlite';
import { SqliteAdapter, sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { ReaderJob } from './ballot-reader.worker.ts';

/** The children a page of ballot rows may carry, each as a JSON array per ballot. */
type ChildList = 'answers' | 'nominations' | 'writeIns' | 'reservations' | 'uploads';

/** Between the fields of a row's `nominations` text, four fields a nomination. */
const SEPARATOR = '\u001f';

/** How a child list is aggregated: its table, the columns of each element, and their order. */
const CHILDREN: Record<ChildList, { table: string; columns: string[]; order: string[] }> = {
  answers: { table: 'answers', columns: ['field', 'value'], order: ['field', 'position'] },
  nominations: { table: 'nominations', columns: ['category_group', 'subcategory', 'slot', 'nominee_id'], order: ['category_group', 'subcategory', 'slot'] },
  writeIns: { table: 'write_ins', columns: ['category_group', 'subcategory', 'name'], order: ['position'] },
  reservations: { table: 'reservations', columns: ['field', 'kind', 'tile', 'custom_text', 'status'], order: ['field'] },
  uploads: { table: 'uploads', columns: ['field', 'original_name', 'id', 'content_type', 'size'], order: ['field', 'id'] },
};

/** What to read with each ballot: the answers to some fields (each field's first value), and child lists. */
export interface RowOptions {
  answerFields: readonly string[];
  children: readonly ChildList[];
  pageSize?: number;
}

/**
 * One ballot as a row: its own columns, `answers[i]` for `answerFields[i]` (null when
 * unanswered), and each child list as JSON text of arrays in the columns of CHILDREN (null or
 * "[]" when it has none), but nominations, read with `nominationRows`.
 */
export interface BallotRow {
  id: string;
  link: string;
  personal_secret: string | null;
  created_at: string;
  answers: Array<string | null>;
  children: Partial<Record<ChildList, string | null>>;
}

/** Ballots per page: large, since a page is one query whose rows are single ballots. */
const ROW_PAGE_SIZE = 10_000;

/** The heap of a reading thread, in MB: it holds a few pages of rows (some megabytes) at a time. */
const THREAD_HEAP = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };

/** Ballots per page read from one SQLite statement: small, so that a page's garbage dies young and the heap stays small. */
const STREAM_PAGE_SIZE = 250;

/**
 * A row's nominations, each made by `make(group, sub-category, slot, nominee id)`. They travel
 * as text, fields and nominations alike split by one control character: a fraction of the cost
 * of JSON for the six million nominations of a million ballots. Groups and sub-categories are the
 * survey's own names, and the database strips the character from nominee ids (an id holding one
 * is on no list either way), so a text that does not split into fours is a fault, not a ballot.
 */
export function nominationRows<T = [string, string, number, string]>(
  text: string | null | undefined,
  make: (group: string, subcategory: string, slot: number, nomineeId: string) => T = (...fields) => fields as T,
): T[] {
  if (!text) return [];
  const fields = text.split(SEPARATOR);
  if (fields.length % 4 !== 0)
    throw new Error(`A ballot's nominations cannot be read: a category name holds a control character (${JSON.stringify(text.slice(0, 80))}).`);
  const rows: T[] = [];
  for (let i = 0; i < fields.length; i += 4) rows.push(make(fields[i], fields[i + 1], Number(fields[i + 2]), fields[i + 3]));
  return rows;
}

/** A child list as parsed JSON: no child gives an empty list. */
export function childRows<T extends unknown[]>(json: string | null | undefined): T[] {
  return !json || json === '[]' ? [] : (JSON.parse(json) as T[]);
}

/**
 * The rows of one SQLite SELECT, a page at a time as one flat list of cells, read by a thread of its own
 * (ballot-reader.worker.ts) while this one works on the pages before; the thread ends when the
 * rows do, or when the caller stops early.
 */
async function* readInThread(job: ReaderJob): AsyncGenerator<unknown[]> {
  // A few pages is all the thread holds: a small heap of its own keeps the process's memory down.
  const worker = new Worker(new URL('./ballot-reader.worker.ts', import.meta.url), { workerData: job, resourceLimits: THREAD_HEAP });
  const pages: Array<unknown[] | null> = [];
  let failed: Error | undefined;
  let wake: (() => void) | undefined;
  const woken = () => {
    wake?.();
    wake = undefined;
  };
  worker.on('message', (page: unknown[] | null) => {
    pages.push(page);
    woken();
  });
  worker.on('error', (error) => {
    failed = error;
    woken();
  });
  worker.on('exit', (code) => {
    if (code !== 0) failed ??= new Error(`The ballot reader stopped with code ${code}.`);
    woken();
  });
  try {
    for (;;) {
      while (!pages.length && !failed) await new Promise<void>((resolve) => (wake = resolve));
      if (failed) throw failed;
      const page = pages.shift()!;
      if (page === null) return;
      worker.postMessage('more');
      yield page;
    }
  } finally {
    await worker.terminate();
  }
}

/** The file of an SQLite database, or undefined for PostgreSQL or an SQLite database in memory. */
async function sqliteFile(db: Kysely<Database>): Promise<string | undefined> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return undefined;
  const { rows } = await sql<{ file: string }>`SELECT file FROM pragma_database_list WHERE name = 'main'`.execute(db);
  return rows[0]?.file || undefined;
}

/**
 * A survey's ballots in the order received (time, then id), a page at a time, each ballot one
 * row with its answers and children aggregated by the database: one row per ballot however
 * many children. The same SQL on SQLite and PostgreSQL but for the aggregate functions' names;
 * children are ordered by their key compared byte by byte (COLLATE "C" on PostgreSQL, SQLite's
 * own), so both give the same order. On an SQLite file it is ONE statement read row by row
 * through a read-only connection of its own (a consistent snapshot, no query built per page, and
 * the operator's connection stays free for the duplicate register and the like); on PostgreSQL,
 * which would need pg-cursor to stream, keyset pages on (created_at, id), which the ballots'
 * index serves.
 */
export async function* ballotRows(db: Kysely<Database>, projectId: string, options: RowOptions): AsyncGenerator<BallotRow[]> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  const collate = (column: string) => (sqlite || column === 'slot' || column === 'position' ? column : `${column} COLLATE "C"`);
  const answer = (field: string, i: number): RawBuilder<unknown> =>
    sql`(SELECT value FROM answers WHERE ballot_id = b.id AND field = ${field} AND position = 0) AS ${sql.ref(`a${i}`)}`;
  const child = (name: ChildList): RawBuilder<unknown> => {
    const { table, columns, order } = CHILDREN[name];
    if (name === 'nominations') {
      const fs = sqlite ? 'char(31)' : 'chr(31)';
      const record = `category_group || ${fs} || subcategory || ${fs} || slot${sqlite ? '' : '::text'} || ${fs} || replace(nominee_id, ${fs}, '')`;
      const aggregate = `${sqlite ? 'group_concat' : 'string_agg'}(${record}, ${fs} ORDER BY ${order.map(collate).join(', ')})`;
      return sql`(SELECT ${sql.raw(aggregate)} FROM nominations WHERE ballot_id = b.id) AS ${sql.ref('c_nominations')}`;
    }
    const list = columns.join(', ');
    const by = order.map(collate).join(', ');
    const aggregate = sqlite ? `json_group_array(json_array(${list}) ORDER BY ${by})` : `json_agg(json_build_array(${list}) ORDER BY ${by})::text`;
    return sql`(SELECT ${sql.raw(aggregate)} FROM ${sql.table(table)} WHERE ballot_id = b.id) AS ${sql.ref(`c_${name}`)}`;
  };
  const selections = [sql`b.id, b.link, b.personal_secret, b.created_at`, ...options.answerFields.map(answer), ...options.children.map(child)];
  const answers = options.answerFields.length;
  const children = options.children.length;
  // Columns by place, from `at` in `cells`: id, link, personal_secret, created_at, the answers, the children.
  const ballotOf = (cells: ReadonlyArray<unknown>, at = 0): BallotRow => {
    const kids: BallotRow['children'] = {};
    for (let c = 0; c < children; c++) kids[options.children[c]] = cells[at + 4 + answers + c] as string | null;
    const values = cells.slice(at + 4, at + 4 + answers) as Array<string | null>;
    return {
      id: cells[at] as string,
      link: cells[at + 1] as string,
      personal_secret: cells[at + 2] as string | null,
      created_at: cells[at + 3] as string,
      answers: values,
      children: kids,
    };
  };

  const file = await sqliteFile(db);
  const pageSize = options.pageSize ?? (file ? STREAM_PAGE_SIZE : ROW_PAGE_SIZE);
  if (file) {
    const query = sql`SELECT ${sql.join(selections)} FROM ballots b WHERE b.project_id = ${projectId} ORDER BY b.created_at, b.id`.compile(db);
    const width = 4 + answers + children;
    for await (const cells of readInThread({ file, sql: query.sql, parameters: query.parameters as SQLInputValue[], pageSize })) {
      const page: BallotRow[] = [];
      for (let at = 0; at < cells.length; at += width) page.push(ballotOf(cells, at));
      yield page;
    }
    return;
  }

  let after: { createdAt: string; id: string } | undefined;
  for (;;) {
    const keyset = after ? sql`AND (b.created_at, b.id) > (${after.createdAt}, ${after.id})` : sql``;
    const { rows } = await sql<
      Record<string, string | null>
    >`SELECT ${sql.join(selections)} FROM ballots b WHERE b.project_id = ${projectId} ${keyset} ORDER BY b.created_at, b.id LIMIT ${pageSize}`.execute(db);
    if (rows.length === 0) return;
    yield rows.map((row) => ballotOf(Object.values(row)));
    const last = rows[rows.length - 1];
    after = { createdAt: last.created_at!, id: last.id! };
  }
}
