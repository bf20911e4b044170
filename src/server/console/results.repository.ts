import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { NewResultsCount, ResultsCountRow, UnsealRequestRow } from '../db/tables/results-console.table.ts';

// The console's results page's rows: the counts it ran (`results_counts`, by (project_id, kind,
// started_at)) and the owners' requests to unseal early (`unseal_requests`, by (project_id,
// asked_at)). A page reads the newest few of each, never a ballot.

/** A count as a page reads it: everything but its CSV, which only the download reads. */
export type CountFacts = Omit<ResultsCountRow, 'tally_csv'>;
const FACTS = [
  'id',
  'project_id',
  'kind',
  'request_id',
  'status',
  'started_at',
  'finished_at',
  'actor',
  'actor_email',
  'ballots_stored',
  'summary',
  'error',
] as const satisfies ReadonlyArray<keyof CountFacts>;

/** Records a count as it starts. */
export async function insertCount(db: Kysely<Database>, row: NewResultsCount): Promise<void> {
  await db.insertInto('results_counts').values(row).execute();
}

/** Records how a count ended: done with its summary and CSV, or failed with why. */
export async function finishCount(
  db: Kysely<Database>,
  id: string,
  end: { status: 'done' | 'failed'; finishedAt: string; summary?: string; csv?: string; error?: string },
): Promise<void> {
  await db
    .updateTable('results_counts')
    .set({ status: end.status, finished_at: end.finishedAt, summary: end.summary ?? null, tally_csv: end.csv ?? null, error: end.error ?? null })
    .where('id', '=', id)
    .execute();
}

/** The newest count of a survey of the kinds an owner's page shows (a Count, a publication), finished or not. */
export async function newestCount(db: Kysely<Database>, projectId: string): Promise<CountFacts | undefined> {
  const [count, publish] = await Promise.all(
    (['count', 'publish'] as const).map((kind) =>
      db
        .selectFrom('results_counts')
        .select(FACTS)
        .where('project_id', '=', projectId)
        .where('kind', '=', kind)
        .orderBy('started_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst(),
    ),
  );
  if (!count || !publish) return count ?? publish;
  return count.id > publish.id ? count : publish;
}

/** The newest finished count of a survey (a Count or a publication), whose figures a page shows. */
export async function lastDoneCount(db: Kysely<Database>, projectId: string): Promise<CountFacts | undefined> {
  const rows = await Promise.all(
    (['count', 'publish'] as const).map((kind) =>
      db
        .selectFrom('results_counts')
        .select(FACTS)
        .where('project_id', '=', projectId)
        .where('kind', '=', kind)
        .where('status', '=', 'done')
        .orderBy('started_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst(),
    ),
  );
  return rows.filter((row) => row !== undefined).sort((a, b) => (a.id < b.id ? 1 : -1))[0];
}

/** A survey's count still running, started after `since` (one started earlier is taken as abandoned). */
export async function runningCount(db: Kysely<Database>, projectId: string, since: string): Promise<CountFacts | undefined> {
  return db
    .selectFrom('results_counts')
    .select(FACTS)
    .where('project_id', '=', projectId)
    .where('status', '=', 'running')
    .where('started_at', '>', since)
    .orderBy('started_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The count an unseal request's look was made from. */
export async function countOfRequest(db: Kysely<Database>, requestId: string): Promise<CountFacts | undefined> {
  return db.selectFrom('results_counts').select(FACTS).where('request_id', '=', requestId).orderBy('started_at', 'desc').limit(1).executeTakeFirst();
}

/** A finished count's CSV, when it is the survey's. */
export async function countCsv(db: Kysely<Database>, projectId: string, id: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('results_counts')
    .select('tally_csv')
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .where('status', '=', 'done')
    .where('kind', '!=', 'look')
    .executeTakeFirst();
  return row?.tally_csv ?? undefined;
}

/** Records an owner's request to unseal. */
export async function insertUnsealRequest(
  db: Kysely<Database>,
  row: Pick<UnsealRequestRow, 'id' | 'project_id' | 'asked_by' | 'asked_by_email' | 'reason' | 'asked_at' | 'expires_at'>,
): Promise<void> {
  await db.insertInto('unseal_requests').values(row).execute();
}

/** A survey's newest unseal requests, newest first: what its page lists. */
export async function recentUnsealRequests(db: Kysely<Database>, projectId: string, limit: number): Promise<UnsealRequestRow[]> {
  return db
    .selectFrom('unseal_requests')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('asked_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** One of a survey's unseal requests. */
export async function findUnsealRequest(db: Kysely<Database>, projectId: string, id: string): Promise<UnsealRequestRow | undefined> {
  return db.selectFrom('unseal_requests').selectAll().where('id', '=', id).where('project_id', '=', projectId).executeTakeFirst();
}

/** Approves a request that waits and has not expired, by another owner than the asker: true when this call approved it. */
export async function approveUnsealRequest(db: Kysely<Database>, id: string, by: { name: string; email: string }, now: string): Promise<boolean> {
  const done = await db
    .updateTable('unseal_requests')
    .set({ approved_by: by.name, approved_by_email: by.email, approved_at: now })
    .where('id', '=', id)
    .where('approved_at', 'is', null)
    .where('expires_at', '>', now)
    .where('asked_by_email', '!=', by.email)
    .executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}

/** Spends an approved request's one look: true when this call took it (none had before). */
export async function takeLook(db: Kysely<Database>, id: string, now: string): Promise<boolean> {
  const done = await db
    .updateTable('unseal_requests')
    .set({ looked_at: now })
    .where('id', '=', id)
    .where('approved_at', 'is not', null)
    .where('looked_at', 'is', null)
    .executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}

/** The newest ballots operators took out of a survey's count, and how many are out in all. */
export async function newestExclusions(
  db: Kysely<Database>,
  projectId: string,
  limit: number,
): Promise<{ total: number; rows: Array<{ ballot_id: string; excluded_by: string; excluded_at: string; reason: string }> }> {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('ballot_exclusions')
      .select(['ballot_id', 'excluded_by', 'excluded_at', 'reason'])
      .where('project_id', '=', projectId)
      .orderBy('excluded_at', 'desc')
      .orderBy('ballot_id')
      .limit(limit)
      .execute(),
    db
      .selectFrom('ballot_exclusions')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow(),
  ]);
  return { total: Number(total.n), rows };
}
