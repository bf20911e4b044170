import { SqliteAdapter, sql, type CompiledQuery, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../server/db/schema.ts';

/** The children a ballot may be read with, each aggregated per ballot by the database. */
export type ChildList = 'answers' | 'nominations' | 'writeIns' | 'reservations' | 'uploads';

/**
 * How a child list is aggregated: its table, the columns of each element, and their order. On
 * SQLite the order is that of the index a ballot's rows are found by, its key after the ballot:
 * the primary key of answers, nominations, write_ins and reservations; uploads_ballot for uploads.
 */
const CHILDREN: Record<ChildList, { table: string; columns: string[]; order: string[] }> = {
  answers: { table: 'answers', columns: ['field', 'value'], order: ['field', 'position'] },
  nominations: { table: 'nominations', columns: ['category_group', 'subcategory', 'slot', 'nominee_id'], order: ['category_group', 'subcategory', 'slot'] },
  writeIns: { table: 'write_ins', columns: ['category_group', 'subcategory', 'name'], order: ['position'] },
  reservations: { table: 'reservations', columns: ['field', 'kind', 'tile', 'custom_text', 'status'], order: ['field'] },
  uploads: { table: 'uploads', columns: ['field', 'original_name', 'id', 'content_type', 'size'], order: ['field', 'id'] },
};

/**
 * What is read with each ballot: the answers to some fields (each field's first value), child
 * lists, and, for the signals, the hashes of the client address and user agent it came from.
 */
export interface BallotShape {
  answerFields: readonly string[];
  children: readonly ChildList[];
  hashes?: boolean;
  /** The ballot's receipt code, for the published ledger. */
  receipts?: boolean;
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

/** True when the survey has a ballot of this id. */
export async function ballotInSurvey(db: Kysely<Database>, projectId: string, ballotId: string): Promise<boolean> {
  const row = await db.selectFrom('ballots').select('id').where('id', '=', ballotId).where('project_id', '=', projectId).executeTakeFirst();
  return row !== undefined;
}

/**
 * The columns of a ballot row, by place: id, link, personal_secret, created_at, replaced_by,
 * replaced_at, verified_email, fill_seconds; client_hash and
 * agent_hash with `hashes`; one per answer field (null when unanswered); one per child list.
 * A child list is JSON text of arrays in the columns of CHILDREN (null or "[]" when it has none),
 * but nominations, which are text: each nomination's group, sub-category, slot and nominee id,
 * fields and nominations alike split by the control character 31, which is stripped from
 * nominee ids (the names are the survey's own). The same SQL on SQLite and PostgreSQL but for the
 * aggregate functions' names; children are ordered by their key compared byte by byte
 * (COLLATE "C" on PostgreSQL, SQLite's own), so both give the same order.
 */
function ballotColumns(db: Kysely<Database>, shape: BallotShape): RawBuilder<unknown>[] {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  const collate = (column: string) => (sqlite || column === 'slot' || column === 'position' ? column : `${column} COLLATE "C"`);
  // On SQLite each child table is read through an index that begins with the ballot and goes on
  // in the list's order (see CHILDREN), so the rows reach the aggregate in that order already: an
  // ORDER BY in it would sort them again, a fifth of an export's time at a million ballots. The
  // ballot reader's test checks the plan uses those indexes. PostgreSQL's tables have no order: it sorts.
  const ordered = (order: string[]) => (sqlite ? '' : ` ORDER BY ${order.map(collate).join(', ')}`);
  const answer = (field: string, i: number): RawBuilder<unknown> =>
    sql`(SELECT value FROM answers WHERE ballot_id = b.id AND field = ${field} AND position = 0) AS ${sql.ref(`a${i}`)}`;
  const child = (name: ChildList): RawBuilder<unknown> => {
    const { table, columns, order } = CHILDREN[name];
    if (name === 'nominations') {
      const fs = sqlite ? 'char(31)' : 'chr(31)';
      const record = `category_group || ${fs} || subcategory || ${fs} || slot${sqlite ? '' : '::text'} || ${fs} || replace(nominee_id, ${fs}, '')`;
      const aggregate = `${sqlite ? 'group_concat' : 'string_agg'}(${record}, ${fs}${ordered(order)})`;
      return sql`(SELECT ${sql.raw(aggregate)} FROM nominations WHERE ballot_id = b.id) AS ${sql.ref('c_nominations')}`;
    }
    const list = columns.join(', ');
    const aggregate = sqlite ? `json_group_array(json_array(${list}))` : `json_agg(json_build_array(${list})${ordered(order)})::text`;
    return sql`(SELECT ${sql.raw(aggregate)} FROM ${sql.table(table)} WHERE ballot_id = b.id) AS ${sql.ref(`c_${name}`)}`;
  };
  return [
    sql`b.id, b.link, b.personal_secret, b.created_at, b.replaced_by, b.replaced_at, b.verified_email, b.fill_seconds`,
    ...(shape.hashes ? [sql`b.client_hash, b.agent_hash`] : []),
    ...(shape.receipts ? [sql`b.receipt`] : []),
    ...shape.answerFields.map(answer),
    ...shape.children.map(child),
  ];
}

/**
 * Every ballot of a survey in the order received (time, then id), a row each (ballotColumns), as
 * ONE statement compiled for a connection of its own to read row by row: the SQLite reader's
 * thread runs it (ballot-reader.worker.ts).
 */
export function ballotsStatement(db: Kysely<Database>, projectId: string, shape: BallotShape): CompiledQuery {
  return sql`SELECT ${sql.join(ballotColumns(db, shape))} FROM ballots b WHERE b.project_id = ${projectId} ORDER BY b.created_at, b.id`.compile(db);
}

/**
 * One page of a survey's ballots in the order received, after the ballot `after` (the first
 * page without it), each row its cells by place (ballotColumns). Keyset pagination on
 * (created_at, id), which the ballots' index serves: every page costs the same however deep.
 */
export async function ballotsPage(
  db: Kysely<Database>,
  projectId: string,
  shape: BallotShape,
  after: { createdAt: string; id: string } | undefined,
  pageSize: number,
): Promise<unknown[][]> {
  const keyset = after ? sql`AND (b.created_at, b.id) > (${after.createdAt}, ${after.id})` : sql``;
  const { rows } = await sql<
    Record<string, unknown>
  >`SELECT ${sql.join(ballotColumns(db, shape))} FROM ballots b WHERE b.project_id = ${projectId} ${keyset} ORDER BY b.created_at, b.id LIMIT ${pageSize}`.execute(
    db,
  );
  return rows.map((row) => Object.values(row));
}
