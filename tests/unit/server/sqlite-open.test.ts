import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const run = promisify(execFile);
const NODE_SQLITE = path.resolve(import.meta.dirname, '../../../src/server/db/node-sqlite.ts');

/**
 * A process that opens `file` at the instant `at` (waiting the last milliseconds out on the
 * clock, so that its neighbours open it in the same one) and prints what became of it.
 */
const OPEN_AT = `
const [file, at] = process.argv.slice(1);
const { openNodeSqlite } = await import(process.env.NODE_SQLITE);
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(at) - Date.now() - 5)));
while (Date.now() < Number(at));
try {
  openNodeSqlite(file, 'NORMAL').close();
  console.log('opened');
} catch (error) {
  console.log(error.message);
}
`;

// Processes that open a new file at once each turn it to WAL. Each holds the read lock that the
// others must see go before one may turn the file: SQLite fails all but one of them at once
// rather than letting them wait for each other, whatever the busy timeout. Before the open tried
// again, about one round in two of three processes failed one with "database is locked".
test('three processes opening a new SQLite file at once all open it, round after round', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'peervote-sqlite-open-'));
  try {
    for (let round = 0; round < 16; round++) {
      const file = path.join(dir, `round-${round}.sqlite`);
      const at = String(Date.now() + 300);
      const outcomes = await Promise.all(
        [1, 2, 3].map(async () => {
          const { stdout } = await run(process.execPath, ['--input-type=module', '-e', OPEN_AT, file, at], { env: { ...process.env, NODE_SQLITE } });
          return stdout.trim();
        }),
      );
      expect(outcomes, `round ${round + 1}`).toEqual(['opened', 'opened', 'opened']);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
