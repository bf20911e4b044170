// Fills a new SQLite database with `count` made-up ballots for the demo survey, in bulk SQL:
// each table is one INSERT … SELECT over a recursive counter, so a million ballots (about
// twelve million rows) take seconds, not the hours a million API posts would.
import { DatabaseSync } from 'node:sqlite';
import { sql, type Kysely } from 'kysely';
import type { Nominee } from '../../../src/survey/nominees/nominee.struct.ts';
import { nameKey } from '../../../src/survey/nominees/name-key.ts';
import { writeInGroupId } from '../../../src/server/intake/write-in-counts.repository.ts';
import { PRACTICES, SUBCATEGORIES } from '../../support/ballots.mjs';

/** The names most written in, in Neurosurgery: a third of the write-ins, in five large groups. */
const POPULAR = ['Dr. Hannah Weiss', 'hannah weiss', 'Dr. Samuel Osei', 'Amara Okafor MD', 'Dr. Luis Ferreira', 'Mei Lin'];
const FIRST = ['Ana', 'Bruno', 'Chiara', 'Dmitri', 'Elif', 'Farid', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Kemal', 'Lena', 'Marek', 'Nadia', 'Oskar'];
const LAST = ['Abara', 'Bjork', 'Castell', 'Dufresne', 'Eklund', 'Fontaine', 'Gallo', 'Horvath', 'Ivanova', 'Jansen', 'Kowalski', 'Lindqvist'];
const SURNAMES = LAST.flatMap((last) => [last, `${last}-Moreau`, `${last} Silva`, `${last}son`, `Van ${last}`]);
/** Names written in now and then (900), each in four spellings that fold the same. */
const SOMETIMES = FIRST.flatMap((first) => SURNAMES.map((last) => `${first} ${last}`));
const SPELLINGS = [(n: string) => `Dr. ${n}`, (n: string) => n.toLowerCase().replace(' ', '  '), (n: string) => `${n.toUpperCase()}, MD`, (n: string) => n];
/** The spellings of POPULAR and SOMETIMES: spelling v of name b of SOMETIMES is number 6 + 4b + v. */
const WRITE_INS = [...POPULAR, ...SOMETIMES.flatMap((name) => SPELLINGS.map((spell) => spell(name)))];
const NEUROSURGERY = SUBCATEGORIES.findIndex(([, sub]) => sub === 'Neurosurgery');
/**
 * Write-in j (of ballot i = 10j) in thirds: a name of POPULAR in Neurosurgery; a name of
 * SOMETIMES in each sub-category in turn; and a name written once ("Dr. Unlisted 12345"). At
 * 1,000,000 ballots, 100,000 write-ins in about 40,000 groups: five of 5,000 and more, 7,200 of
 * a few, and 33,333 of one.
 */
const WRITE_IN_SPELLING = `CASE j % 3 WHEN 0 THEN (j / 3) % ${POPULAR.length} WHEN 1 THEN ${POPULAR.length} + (((j / 3) * 7919) % ${SOMETIMES.length}) * 4 + (j / 3) % 4 ELSE -1 END`;
const WRITE_IN_SUB = `CASE j % 3 WHEN 0 THEN ${NEUROSURGERY} WHEN 1 THEN (j / 3 / ${SOMETIMES.length}) % ${SUBCATEGORIES.length} ELSE (j / 3) % ${SUBCATEGORIES.length} END`;
/** The name and folded name of write-in j, from the spelling `w` WRITE_IN_SPELLING picked, or its own. */
const WRITE_IN_NAME = `CASE WHEN j % 3 = 2 THEN 'Dr. Unlisted ' || j ELSE w.name END, CASE WHEN j % 3 = 2 THEN 'unlisted ' || j ELSE w.name_key END`;

/** The ballots' counts per survey and day (ballot_days), as the API keeps them when it stores a ballot: all in shard 0. */
const COUNT_DAYS = `INSERT INTO ballot_days (project_id, day, shard, ballots)
  SELECT project_id, substr(created_at, 1, 10), 0, count(*) FROM ballots WHERE true GROUP BY project_id, substr(created_at, 1, 10)
  ON CONFLICT (project_id, day, shard) DO UPDATE SET ballots = ballot_days.ballots + excluded.ballots`;

/** The write-ins counted by spelling (write_in_spellings), as the API keeps them as it stores a ballot: demo ballots left out. */
const COUNT_SPELLINGS = `INSERT INTO write_in_spellings (project_id, category_group, subcategory, name_key, name, writes)
  SELECT b.project_id, w.category_group, w.subcategory, w.name_key, w.name, count(*) FROM write_ins w JOIN ballots b ON b.id = w.ballot_id
  WHERE b.link <> 'demo' GROUP BY b.project_id, w.category_group, w.subcategory, w.name_key, w.name`;

/** Votes per ballot: one slot in each of six sub-categories. */
export const VOTES_PER_BALLOT = 6;

/**
 * The ballots, one per counter value i, received a second apart: 1 in 100 repeats an earlier
 * voter's email (a duplicate), 1 in 100 is a nominee voting for themselves (by name), 1 in 200
 * is a demo ballot, 1 in 10 carries a write-in (WRITE_IN_SPELLING), counted by group and spelling.
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
    CREATE TEMP TABLE bench_writeins (k INTEGER PRIMARY KEY, name TEXT, name_key TEXT);
    COMMIT;`);
  const spelling = db.prepare('INSERT INTO bench_writeins VALUES (?, ?, ?)');
  db.exec('BEGIN');
  WRITE_INS.forEach((name, k) => spelling.run(k, name, nameKey(name)));
  db.exec('COMMIT');
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
  db.exec(`${counter} INSERT INTO write_ins (ballot_id, position, name, name_key, category_group, subcategory)
    SELECT ${id}, 0, ${WRITE_IN_NAME}, s.grp, s.sub FROM (SELECT i, i / 10 AS j FROM c WHERE i % 10 = 0) wc
    LEFT JOIN bench_writeins w ON w.k = ${WRITE_IN_SPELLING} JOIN bench_subs s ON s.k = ${WRITE_IN_SUB}`);
  // The write-ins' counts by spelling and group, as the API keeps them as it stores a ballot.
  db.exec(COUNT_SPELLINGS);
  db.function('group_id', { deterministic: true }, (group, sub, key) => writeInGroupId(String(group), String(sub), String(key)));
  db.exec(`INSERT INTO write_in_groups (project_id, category_group, subcategory, name_key, id, writes, decided, since_decision)
    SELECT project_id, category_group, subcategory, name_key, group_id(category_group, subcategory, name_key), sum(writes), 0, 0
    FROM write_in_spellings GROUP BY project_id, category_group, subcategory, name_key`);
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
  await sql`WITH w AS (SELECT name, name_key, ord - 1 AS k FROM unnest(${WRITE_INS}::text[], ${WRITE_INS.map(nameKey)}::text[]) WITH ORDINALITY AS u(name, name_key, ord)),
      s AS (SELECT grp, sub, ord - 1 AS k FROM unnest(${SUBCATEGORIES.map(([group]) => group)}::text[], ${SUBCATEGORIES.map(([, sub]) => sub)}::text[]) WITH ORDINALITY AS u(grp, sub, ord))
    INSERT INTO write_ins (ballot_id, position, name, name_key, category_group, subcategory)
    SELECT ${id}, 0, ${sql.raw(WRITE_IN_NAME)}, s.grp, s.sub FROM (SELECT i, i / 10 AS j FROM ${series} WHERE i % 10 = 0) wc
    LEFT JOIN w ON w.k = ${sql.raw(WRITE_IN_SPELLING)} JOIN s ON s.k = ${sql.raw(WRITE_IN_SUB)}`.execute(db);
  await sql.raw(COUNT_SPELLINGS).execute(db);
  const groups = await sql<{ project_id: string; category_group: string; subcategory: string; name_key: string; writes: string }>`
    SELECT project_id, category_group, subcategory, name_key, sum(writes) AS writes FROM write_in_spellings
    GROUP BY project_id, category_group, subcategory, name_key`.execute(db);
  for (let at = 0; at < groups.rows.length; at += 2000) {
    const batch = groups.rows.slice(at, at + 2000);
    const column = <K extends keyof (typeof batch)[number]>(key: K) => batch.map((row) => row[key]);
    await sql`INSERT INTO write_in_groups (project_id, category_group, subcategory, name_key, id, writes, decided, since_decision)
      SELECT p, g, s, k, id, n::integer, 0, 0 FROM unnest(${column('project_id')}::text[], ${column('category_group')}::text[], ${column('subcategory')}::text[],
        ${column('name_key')}::text[], ${batch.map((row) => writeInGroupId(row.category_group, row.subcategory, row.name_key))}::text[], ${column('writes')}::text[])
        AS u(p, g, s, k, id, n)`.execute(db);
  }
  await sql.raw(COUNT_DAYS).execute(db);
}
