import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { startApi, type Api } from './helpers.ts';
import { runResults } from '../support/results-cli.ts';
import { generateBallots } from '../bench/tally/generate.ts';
import { createDatabase, migrateToLatest } from '../../src/server/db/database.ts';
import { loadSurvey } from '../../src/survey/config/loader.ts';
import { loadNominees } from '../../src/survey/nominees/nominee-file.ts';

// The commands that write thousands of lines print nothing but their own progress and summary on
// standard error: no warning from Node. Writing to a file or a pipe waits for it to drain many
// times over (on SQLite the export writes 250 ballots a page, 16 pages here), and each wait used
// to leave a listener behind: Node warned of a leak (MaxListenersExceededWarning) after ten.

const BALLOTS = 4_000;
const DEMO = 'top-doctors-demo';

let api: Api;
let out: string;

/** Makes up BALLOTS ballots of the demo survey in an SQLite file, in bulk (the tally bench's generator). */
async function generated(file: string): Promise<void> {
  const { db } = createDatabase({ sqliteFile: file, sqliteSynchronous: 'NORMAL', pgPoolMax: 1 });
  await migrateToLatest(db);
  await db.destroy();
  generateBallots(file, BALLOTS, loadNominees(loadSurvey(DEMO, inject('surveysDir'))));
}

/** Copies the ballot tables of an SQLite file into PostgreSQL, a batch of rows at a time as JSON that PostgreSQL unpacks. */
async function copyToPostgres(file: string, db: Kysely<any>): Promise<void> {
  const source = new DatabaseSync(file, { readOnly: true });
  try {
    for (const table of ['ballots', 'answers', 'nominations', 'write_ins']) {
      const rows = source.prepare(`SELECT * FROM ${table}`).all();
      for (let i = 0; i < rows.length; i += 20_000) {
        await sql`INSERT INTO ${sql.table(table)} SELECT * FROM json_populate_recordset(NULL::${sql.table(table)}, ${JSON.stringify(rows.slice(i, i + 20_000))}::json)`.execute(
          db,
        );
      }
    }
  } finally {
    source.close();
  }
}

beforeAll(async () => {
  api = await startApi();
  out = mkdtempSync(path.join(tmpdir(), 'peervote-warnings-'));
  if (api.dialect === 'sqlite') await generated(path.join(api.dataDir, 'peervote.sqlite'));
  else {
    const file = path.join(out, 'generated.sqlite');
    await generated(file);
    await copyToPostgres(file, api.db());
  }
}, 120_000);

afterAll(async () => {
  await api?.stop();
  if (out) rmSync(out, { recursive: true, force: true });
});

describe(`commands over ${BALLOTS.toLocaleString('en')} ballots`, () => {
  test.each([
    ['export to a file', ['export', DEMO, '--out', 'export.csv']],
    ['export to a pipe', ['export', DEMO]],
    ['tally with its exclusions', ['tally', DEMO, '--out', 'tally.csv', '--exclusions', 'exclusions.csv']],
    ['signals', ['signals', DEMO, '--format', 'csv', '--out', 'signals.csv']],
    ['report', ['report', DEMO, '--out', 'report.html']],
  ])('%s prints no warning', async (_, args) => {
    const inOut = args.map((arg) => (/\.(csv|html)$/.test(arg) ? path.join(out, arg) : arg));
    const { code, stdout, stderr } = await runResults(inOut, { SURVEYS_DIR: inject('surveysDir'), DATA_DIR: api.dataDir, DATABASE_URL: api.databaseUrl });
    expect(code, stderr).toBe(0);
    // The run read every ballot (its progress says so), and Node said nothing of its own.
    expect(stderr).toContain(`${BALLOTS.toLocaleString('en')} of ${BALLOTS.toLocaleString('en')} ballots`);
    expect(stderr).not.toMatch(/Warning|\(node:\d+\)/);
    if (args.length === 2) expect(stdout.split('\n').length).toBeGreaterThan(BALLOTS);
  });
});
