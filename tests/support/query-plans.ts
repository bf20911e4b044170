import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import type { Database } from '../../src/server/db/schema.ts';
import { openNodeSqlite } from '../../src/server/db/node-sqlite.ts';

// A test's SQLite database that records every query asked of it, and SQLite's plan for each: for
// the unit tests that show a page's queries search an index and scan no table.

/** A fresh SQLite database in a temp folder (not migrated), the queries asked of it since `asked` was last emptied, and their plans. */
export function plannedSqlite(name: string): {
  db: Kysely<Database>;
  asked: CompiledQuery[];
  plan(query: CompiledQuery): string[];
  remove(): Promise<void>;
} {
  const dir = mkdtempSync(path.join(tmpdir(), `peervote-${name}-`));
  const file = path.join(dir, 'peervote.sqlite');
  const asked: CompiledQuery[] = [];
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: openNodeSqlite(file, 'NORMAL') }),
    log: (event) => {
      if (event.level === 'query') asked.push(event.query);
    },
  });
  return {
    db,
    asked,
    /** SQLite's plan for a query, one line a step. */
    plan(query) {
      const reader = new DatabaseSync(file);
      try {
        return reader
          .prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
          .all(...(query.parameters as SQLInputValue[]))
          .map((step) => String(step.detail));
      } finally {
        reader.close();
      }
    },
    async remove() {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
