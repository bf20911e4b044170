// Same results on PostgreSQL (a script, not a test): generates N ballots of the demo survey in
// SQLite, copies them into the PostgreSQL database of DATABASE_URL (a throwaway one:
// tests/support/postgres.sh start), then tallies and exports both and says whether the tally
// CSV, the exclusions and the export are byte-identical, with each side's time.
//
//   DATABASE_URL=postgres://… node tests/bench/tally/pg-compare.ts [--ballots 100000]
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DatabaseSync } from 'node:sqlite';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../src/server/db/schema.ts';
import { createDatabase, migrateToLatest } from '../../../src/server/db/database.ts';
import { loadPrepopulation, loadSurvey } from '../../../src/survey/config/loader.ts';
import { loadNominees } from '../../../src/survey/nominees/nominee-file.ts';
import { tallySurvey } from '../../../src/results/tally/tally.ts';
import { exclusionCsvLine, rankTally, tallyCsv } from '../../../src/results/tally/tally-report.ts';
import { exportBallots } from '../../../src/results/export/export.ts';
import { generateBallots } from './generate.ts';

const { values: args } = parseArgs({ options: { ballots: { type: 'string' } } });
const size = Number(args.ballots ?? 100_000);
const url = process.env.DATABASE_URL;
if (!url) throw new Error('Set DATABASE_URL to a throwaway PostgreSQL database (tests/support/postgres.sh start).');
const survey = loadSurvey('top-doctors-demo');
const nominees = loadNominees(survey);
const prepopulation = loadPrepopulation(survey);
const dir = mkdtempSync(path.join(tmpdir(), 'peervote-pg-compare-'));
const file = path.join(dir, 'peervote.sqlite');
const sqlite = createDatabase({ sqliteFile: file, sqliteSynchronous: 'NORMAL', pgPoolMax: 1 }).db;
await migrateToLatest(sqlite);
generateBallots(file, size, nominees);
const postgres = createDatabase({ databaseUrl: url, sqliteFile: '', sqliteSynchronous: 'NORMAL', pgPoolMax: 2 }).db;
await migrateToLatest(postgres);

// Copies each table in batches of rows, as JSON that PostgreSQL unpacks.
const source = new DatabaseSync(file, { readOnly: true });
for (const table of ['ballots', 'answers', 'nominations', 'write_ins']) {
  const rows = source.prepare(`SELECT * FROM ${table}`).all();
  for (let i = 0; i < rows.length; i += 20_000) {
    await sql`INSERT INTO ${sql.table(table)} SELECT * FROM json_populate_recordset(NULL::${sql.table(table)}, ${JSON.stringify(rows.slice(i, i + 20_000))}::json)`.execute(
      postgres as Kysely<any>,
    );
  }
}
source.close();

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);
async function run(db: Kysely<Database>) {
  let exclusions = '';
  let started = performance.now();
  const tally = await tallySurvey(db, { survey, nominees, prepopulation, onExclusion: (e) => void (exclusions += exclusionCsvLine(e)) });
  const tallyS = (performance.now() - started) / 1000;
  const csv = tallyCsv(rankTally(survey.config, tally), tally);
  let exported = '';
  started = performance.now();
  await exportBallots(db, { survey, nominees, format: 'csv', now: new Date('2030-01-01T00:00:00Z'), write: (chunk) => void (exported += chunk) });
  const exportS = (performance.now() - started) / 1000;
  return { tally: hash(csv), exclusions: hash(exclusions), export: hash(exported), tallyS: tallyS.toFixed(2), exportS: exportS.toFixed(2) };
}
const onSqlite = await run(sqlite);
const onPostgres = await run(postgres);
console.log(`${size.toLocaleString('en')} ballots\nSQLite:     ${JSON.stringify(onSqlite)}\nPostgreSQL: ${JSON.stringify(onPostgres)}`);
const same = onSqlite.tally === onPostgres.tally && onSqlite.exclusions === onPostgres.exclusions && onSqlite.export === onPostgres.export;
console.log(same ? 'tally, exclusions and export byte-identical on both databases' : 'DIFFERENT results on the two databases');
await sqlite.destroy();
await postgres.destroy();
rmSync(dir, { recursive: true, force: true });
process.exitCode = same ? 0 : 1;
