// The one reader of stored ballots: the tally, the export, the signals and the purge (and through
// the tally, the report and a receipt's status) read a survey's ballots here, in the order
// received, a page at a time, each ballot one row with the answers and children it was asked for.
// A million ballots are read this way: on an SQLite file by one statement in a thread of its own
// that runs a few pages ahead of the caller; on PostgreSQL by keyset pages.
import { Worker } from 'node:worker_threads';
import type { SQLInputValue } from 'node:sqlite';
import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { ReaderJob } from './ballot-reader.worker.ts';
import { ballotsPage, ballotsStatement, type BallotShape, type ChildList } from './ballots.repository.ts';
import { sqliteFile } from '../../server/db/database.ts';
import { threadModule } from '../thread-module.ts';

/** What to read with each ballot (BallotShape), and how many ballots a page holds (by default, what suits the database). */
export interface ReadOptions extends BallotShape {
  pageSize?: number;
}

/** A ballot's standing: `current` counts; `replaced` was followed by a later ballot of the same voter and never counts. */
type BallotStatus = 'current' | 'replaced';

/**
 * One stored ballot as read: its own columns, `answers[i]` for `answerFields[i]` (null when
 * unanswered), and each child list as the database aggregated it (JSON text, read with
 * `childRows`, but nominations, read with `nominationRows`). The hashes are there when asked for.
 */
export interface StoredBallot {
  id: string;
  link: string;
  personal_secret: string | null;
  created_at: string;
  status: BallotStatus;
  /** The later ballot that replaced this one, and when; null while current. */
  replaced_by: string | null;
  replaced_at: string | null;
  /** The address the voter proved with a code, when the survey verifies voters. */
  verified_email: string | null;
  /** Whole seconds the voter spent on the form, as the page measured them; null when posted without the page. */
  fill_seconds: number | null;
  client_hash?: string | null;
  agent_hash?: string | null;
  /** The receipt code, when asked for. */
  receipt?: string;
  answers: Array<string | null>;
  children: Partial<Record<ChildList, string | null>>;
}

/** Between the fields of a ballot's `nominations` text (control character 31, as ballots.repository.ts writes it). */
const SEPARATOR = '\u001f';

/** Ballots per page on PostgreSQL: large, since a page is one query whose rows are single ballots. */
const ROW_PAGE_SIZE = 10_000;

/** The heap of a reading thread, in MB: it holds a few pages of rows (some megabytes) at a time. */
const THREAD_HEAP = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };

/** Ballots per page read from one SQLite statement: small, so that a page's garbage dies young and the heap stays small. */
const STREAM_PAGE_SIZE = 250;

/**
 * A ballot's nominations, each made by `make(group, sub-category, slot, nominee id)`. They travel
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

/** A ballot's answers by field, for the fields it was read with: `get` gives the field's first value, undefined when unanswered. */
export function answersByField(answerFields: readonly string[]): (ballot: StoredBallot) => Pick<ReadonlyMap<string, string>, 'get'> {
  const column = new Map(answerFields.map((field, i) => [field, i]));
  return (ballot) => ({ get: (field: string) => ballot.answers[column.get(field)!] ?? undefined });
}

/**
 * The rows of one SQLite SELECT, a page at a time as one flat list of cells, read by a thread of its own
 * (ballot-reader.worker.ts) while this one works on the pages before; the thread ends when the
 * rows do, or when the caller stops early.
 */
async function* readInThread(job: ReaderJob): AsyncGenerator<unknown[]> {
  // A few pages is all the thread holds: a small heap of its own keeps the process's memory down.
  const worker = new Worker(threadModule(new URL('./ballot-reader.worker.ts', import.meta.url)), { workerData: job, resourceLimits: THREAD_HEAP });
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

/**
 * A survey's ballots in the order received (time, then id), a page at a time, each ballot one
 * row with its answers and children aggregated by the database: one row per ballot however
 * many children. On an SQLite file it is ONE statement read row by row through a read-only
 * connection of its own (a consistent snapshot, no query built per page, and the caller's
 * connection stays free for the duplicate register, a purge's changes and the like); on
 * PostgreSQL, which would need pg-cursor to stream, keyset pages on (created_at, id).
 */
export async function* readBallots(db: Kysely<Database>, projectId: string, options: ReadOptions): AsyncGenerator<StoredBallot[]> {
  const answers = options.answerFields.length;
  const children = options.children.length;
  // The receipt, when asked for, is read as one more of the hashes' columns, after them.
  const hashes = (options.hashes ? 2 : 0) + (options.receipts ? 1 : 0);
  // id, link, personal_secret, created_at, replaced_by, replaced_at, verified_email, fill_seconds.
  const own = 8;
  const width = own + hashes + answers + children;
  // Columns by place, from `at` in `cells`: the ballot's own, the hashes, the answers, the children.
  const ballotOf = (cells: ReadonlyArray<unknown>, at = 0): StoredBallot => {
    const kids: StoredBallot['children'] = {};
    for (let c = 0; c < children; c++) kids[options.children[c]] = cells[at + own + hashes + answers + c] as string | null;
    const values = cells.slice(at + own + hashes, at + own + hashes + answers) as Array<string | null>;
    const replacedBy = cells[at + 4] as string | null;
    const ballot: StoredBallot = {
      id: cells[at] as string,
      link: cells[at + 1] as string,
      personal_secret: cells[at + 2] as string | null,
      created_at: cells[at + 3] as string,
      status: replacedBy === null ? 'current' : 'replaced',
      replaced_by: replacedBy,
      replaced_at: cells[at + 5] as string | null,
      verified_email: cells[at + 6] as string | null,
      fill_seconds: cells[at + 7] === null ? null : Number(cells[at + 7]),
      answers: values,
      children: kids,
    };
    if (options.hashes) {
      ballot.client_hash = cells[at + own] as string | null;
      ballot.agent_hash = cells[at + own + 1] as string | null;
    }
    if (options.receipts) ballot.receipt = cells[at + own + hashes - 1] as string;
    return ballot;
  };

  const file = await sqliteFile(db);
  const pageSize = options.pageSize ?? (file ? STREAM_PAGE_SIZE : ROW_PAGE_SIZE);
  if (file) {
    const query = ballotsStatement(db, projectId, options);
    for await (const cells of readInThread({ file, sql: query.sql, parameters: query.parameters as SQLInputValue[], pageSize })) {
      const page: StoredBallot[] = [];
      for (let at = 0; at < cells.length; at += width) page.push(ballotOf(cells, at));
      yield page;
    }
    return;
  }

  let after: { createdAt: string; id: string } | undefined;
  for (;;) {
    const rows = await ballotsPage(db, projectId, options, after, pageSize);
    if (rows.length === 0) return;
    yield rows.map((row) => ballotOf(row));
    const last = rows[rows.length - 1];
    after = { createdAt: last[3] as string, id: last[0] as string };
  }
}
