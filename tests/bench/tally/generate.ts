// Fills a new SQLite database with `count` made-up ballots for the demo survey, in bulk SQL:
// each table is one INSERT … SELECT over a recursive counter, so a million ballots (about
// twelve million rows) take seconds, not the hours a million API posts would.
import { DatabaseSync } from 'node:sqlite';
import { sql, type Kysely } from 'kysely';
import type { Nominee } from '../../../src/survey/nominees/nominee.struct.ts';
import { PRACTICES, SUBCATEGORIES } from '../../support/ballots.mjs';

const WRITE_INS = ['Dr. Hannah Weiss', 'hannah weiss', 'Dr. Samuel Osei', 'Amara Okafor MD', 'Dr. Luis Ferreira', 'Mei Lin'];

/** The ballots' counts per survey and day (ballot_days), as the API keeps them when it stores a ballot: all in shard 0. */
const COUNT_DAYS = `INSERT INTO ballot_days (project_id, day, shard, ballots)
  SELECT project_id, substr(created_at, 1, 10), 0, count(*) FROM ballots WHERE true GROUP BY project_id, substr(created_at, 1, 10)
  ON CONFLICT (project_id, day, shard) DO UPDATE SET ballots = ballot_days.ballots + excluded.ballots`;

/** Votes per ballot: one slot in each of six sub-categories. */
export const VOTES_PER_BALLOT = 6;

/**
 * The ballots, one per counter value i, received a second apart: 1 in 100 repeats an earlier
 * voter's email (a duplicate), 1 in 100 is a nominee voting for themselves (by name), 1 in 200
 * is a demo ballot, 1 in 10 carries a write-in.
 */
export function generateBallots(file: string, count: number, nominees: readonly Nominee[]): void {
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; PRAGMA cache_size = -64000;');
  db.exec('CREATE TEMP TABLE bench_nominees (n INTEGER PRIMARY KEY, id TEXT, name TEXT)');
  const add = db.prepare('INSERT INTO bench_nominees VALUES (?, ?, ?)');
  db.exec('BEGIN');
  nominees.forEach((nominee, n) => add.run(n, nominee.id, nominee.name));
  db.exec(`CREATE TEMP TABLE bench_subs (k INTEGER PRIMARY KEY, grp TEXT, sub TEXT);
    INSERT INTO bench_subs VALUES ${SUBCATEGORIES.map(([g, s], k) => `(${k}, '${g}', '${s}')`).join(', ')};
    CREATE TEMP TABLE bench_practices (k INTEGER PRIMARY KEY, name TEXT);
    INSERT INTO bench_practices VALUES ${PRACTICES.map((p, k) => `(${k}, '${p}')`).join(', ')};
    CREATE TEMP TABLE bench_writeins (k INTEGER PRIMARY KEY, name TEXT);
    INSERT INTO bench_writeins VALUES ${WRITE_INS.map((w, k) => `(${k}, '${w}')`).join(', ')};
    COMMIT;`);
  const size = nominees.length;
  const start = Date.parse('2027-01-10T00:00:00Z') / 1000;
  // A ballot's id: a UUIDv7 of its second, with i in the random part, so ids sort as the ballots arrived.
  const id = `printf('%08x-%04x-7000-8000-%012x', (${start} + i) * 1000 / 65536, ((${start} + i) * 1000) % 65536, i)`;
  const counter = `WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < ${count - 1})`;
  const self = `(i % 100 = 3)`;
  db.exec('BEGIN');
  // Client and browser hashes as the API keeps them (hex digests), for the signals: nearly every
  // ballot its own address, browsers shared by many.
  const digest = (text: string) => `printf('%032x', ${text})`;
  db.exec(`${counter} INSERT INTO ballots (id, project_id, link, personal_secret, created_at, client_hash, agent_hash)
    SELECT ${id}, 'top-doctors-demo', CASE WHEN i % 200 = 7 THEN 'demo' ELSE 'public' END, NULL,
      strftime('%Y-%m-%dT%H:%M:%S.000Z', ${start} + i, 'unixepoch'), ${digest('i * 7919 + 13')}, ${digest('i % 5000 + 1000000007')} FROM c`);
  db.exec(`${counter} INSERT INTO answers (ballot_id, field, position, value)
    SELECT ${id}, f.field, 0, CASE f.field
      WHEN 'email' THEN 'voter' || (CASE WHEN i % 100 = 99 THEN i - 50 ELSE i END) || '@example.org'
      WHEN 'medical-license' THEN 'MD-' || (100000 + i)
      WHEN 'medical-practice' THEN (SELECT name FROM bench_practices WHERE k = i % 5)
      WHEN 'name-first' THEN CASE WHEN ${self} THEN (SELECT name FROM bench_nominees WHERE n = i % ${size}) ELSE 'Voter' END
      ELSE 'Number ' || i END
    FROM c, (SELECT 'email' AS field UNION ALL SELECT 'medical-license' UNION ALL SELECT 'medical-practice' UNION ALL SELECT 'name-first' UNION ALL SELECT 'name-last') f
    WHERE NOT (${self} AND f.field IN ('name-last', 'medical-license'))
    ORDER BY 1, 2`);
  db.exec(`${counter}, k(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM k WHERE k < ${VOTES_PER_BALLOT - 1})
    INSERT INTO nominations (ballot_id, category_group, subcategory, slot, nominee_id)
    SELECT ${id}, s.grp, s.sub, 1, (SELECT id FROM bench_nominees WHERE n = CASE WHEN ${self} AND k.k = 0 THEN i % ${size} ELSE (i * 7 + k.k * 13) % ${size} END)
    FROM c, k, bench_subs s WHERE s.k = (i + k.k) % ${SUBCATEGORIES.length}`);
  db.exec(`${counter} INSERT INTO write_ins (ballot_id, position, name, category_group, subcategory)
    SELECT ${id}, 0, (SELECT name FROM bench_writeins WHERE k = (i / 10) % ${WRITE_INS.length}), 'Surgery', 'Neurosurgery' FROM c WHERE i % 10 = 0`);
  // The counts per day the API keeps as it stores a ballot.
  db.exec(`${COUNT_DAYS}`);
  db.exec('COMMIT');
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
}

/**
 * The same ballots in a PostgreSQL database (migrated, without ballots of the demo survey), in
 * bulk SQL over generate_series: row for row what `generateBallots` writes in SQLite.
 */
export async function generateBallotsPostgres(pool: Kysely<any>, count: number, nominees: readonly Nominee[]): Promise<void> {
  // One connection, whose foreign-key triggers are off while it loads (the throwaway cluster's
  // superuser may): checking each of millions of child rows against its ballot one by one takes
  // most of a load, and the rows are made to fit.
  await pool.connection().execute(async (db) => {
    await sql`SET session_replication_role = replica`.execute(db);
    await loadPostgres(db, count, nominees);
    await sql`SET session_replication_role = DEFAULT`.execute(db);
  });
  await sql`ANALYZE`.execute(pool);
}

/** The INSERT … SELECT statements of generateBallotsPostgres. */
async function loadPostgres(db: Kysely<any>, count: number, nominees: readonly Nominee[]): Promise<void> {
  const ids = nominees.map((nominee) => nominee.id);
  const names = nominees.map((nominee) => nominee.name);
  const size = nominees.length;
  const start = Date.parse('2027-01-10T00:00:00Z') / 1000;
  const second = sql.raw(`(${start}::bigint + i)`);
  const id = sql`lpad(to_hex(${second} * 1000 / 65536), 8, '0') || '-' || lpad(to_hex((${second} * 1000) % 65536), 4, '0') || '-7000-8000-' || lpad(to_hex(i), 12, '0')`;
  const series = sql.raw(`generate_series(0, ${count - 1}) AS c(i)`);
  const self = sql.raw('(i % 100 = 3)');
  const digest = (text: string) => sql.raw(`lpad(to_hex(${text}), 32, '0')`);
  await sql`INSERT INTO ballots (id, project_id, link, personal_secret, created_at, client_hash, agent_hash)
    SELECT ${id}, 'top-doctors-demo', CASE WHEN i % 200 = 7 THEN 'demo' ELSE 'public' END, NULL,
      to_char(to_timestamp(${second}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"'), ${digest('i::bigint * 7919 + 13')}, ${digest('i % 5000 + 1000000007')}
    FROM ${series}`.execute(db);
  await sql`INSERT INTO answers (ballot_id, field, position, value)
    SELECT ${id}, f.field, 0, CASE f.field
      WHEN 'email' THEN 'voter' || (CASE WHEN i % 100 = 99 THEN i - 50 ELSE i END) || '@example.org'
      WHEN 'medical-license' THEN 'MD-' || (100000 + i)
      WHEN 'medical-practice' THEN (${PRACTICES}::text[])[i % ${sql.lit(PRACTICES.length)} + 1]
      WHEN 'name-first' THEN CASE WHEN ${self} THEN (${names}::text[])[i % ${sql.lit(size)} + 1] ELSE 'Voter' END
      ELSE 'Number ' || i END
    FROM ${series}, (VALUES ('email'), ('medical-license'), ('medical-practice'), ('name-first'), ('name-last')) AS f(field)
    WHERE NOT (${self} AND f.field IN ('name-last', 'medical-license'))`.execute(db);
  // The nominees joined by their place, not picked out of an array parameter: reading the n-th
  // element of a text array walks the array, which costs minutes over millions of rows.
  await sql`WITH n AS (SELECT id, ord - 1 AS k FROM unnest(${ids}::text[]) WITH ORDINALITY AS u(id, ord))
    INSERT INTO nominations (ballot_id, category_group, subcategory, slot, nominee_id)
    SELECT ${id}, (${SUBCATEGORIES.map(([group]) => group)}::text[])[(i + k.k) % ${sql.lit(SUBCATEGORIES.length)} + 1],
      (${SUBCATEGORIES.map(([, sub]) => sub)}::text[])[(i + k.k) % ${sql.lit(SUBCATEGORIES.length)} + 1], 1, n.id
    FROM ${series} CROSS JOIN generate_series(0, ${sql.lit(VOTES_PER_BALLOT - 1)}) AS k(k)
    JOIN n ON n.k = CASE WHEN ${self} AND k.k = 0 THEN i % ${sql.lit(size)} ELSE (i * 7 + k.k * 13) % ${sql.lit(size)} END`.execute(db);
  await sql`INSERT INTO write_ins (ballot_id, position, name, category_group, subcategory)
    SELECT ${id}, 0, (${WRITE_INS}::text[])[(i / 10) % ${sql.lit(WRITE_INS.length)} + 1], 'Surgery', 'Neurosurgery' FROM ${series} WHERE i % 10 = 0`.execute(
    db,
  );
  await sql.raw(COUNT_DAYS).execute(db);
}
