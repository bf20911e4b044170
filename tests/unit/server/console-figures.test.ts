import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Database } from '../../../src/server/db/schema.ts';
import { migrateToLatest } from '../../../src/server/db/database.ts';
import { openNodeSqlite } from '../../../src/server/db/node-sqlite.ts';
import * as figures from '../../../src/server/console/console-views.repository.ts';

// The console's figures come from indexes, never from reading a whole table: SQLite's plan for
// each of its queries searches an index by the survey, and scans no table.

const dir = mkdtempSync(path.join(tmpdir(), 'peervote-console-figures-'));
const file = path.join(dir, 'peervote.sqlite');
let asked: CompiledQuery[] = [];
const db = new Kysely<Database>({
  dialect: new SqliteDialect({ database: openNodeSqlite(file, 'NORMAL') }),
  log: (event) => {
    if (event.level === 'query') asked.push(event.query);
  },
});

beforeAll(() => migrateToLatest(db));
afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/** SQLite's plan for a query, one line a step. */
function plan(query: CompiledQuery): string[] {
  const reader = new DatabaseSync(file);
  try {
    const rows = reader.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...(query.parameters as SQLInputValue[]));
    return rows.map((row) => String(row.detail));
  } finally {
    reader.close();
  }
}

describe("the console's figures", () => {
  test.each([
    { name: 'ballots received', table: 'ballots', run: () => figures.ballotsReceived(db, 'p') },
    { name: 'personal links voted', table: 'ballots', run: () => figures.personalLinksVoted(db, 'p') },
    { name: 'ballots per day', table: 'ballots', run: () => figures.ballotsPerDay(db, 'p') },
    { name: 'messages by status', table: 'mail_messages', run: () => figures.messagesByStatus(db, 'p') },
    { name: 'mail stopped', table: 'mail_recipients', run: () => figures.mailStopped(db, 'p') },
    { name: 'refused by reason', table: 'refused_ballots', run: () => figures.refusedByReason(db, 'p') },
  ])('$name searches an index of $table by the survey', async ({ table, run }) => {
    asked = [];
    await run();
    expect(asked).toHaveLength(1);
    const steps = plan(asked[0]);
    expect(steps.filter((step) => step.startsWith('SCAN '))).toEqual([]);
    expect(
      steps.some((step) => new RegExp(`^SEARCH ${table} USING (COVERING )?INDEX .*\\(project_id=\\?`).test(step)),
      steps.join('; '),
    ).toBe(true);
  });

  test('ballots received, and per day, are counted in the index alone, whatever the survey holds', async () => {
    for (const run of [() => figures.ballotsReceived(db, 'p'), () => figures.ballotsPerDay(db, 'p')]) {
      asked = [];
      await run();
      expect(plan(asked[0]).join('; ')).toContain('USING COVERING INDEX');
    }
  });
});
