// Runs transactions on an SQLite file in a thread of its own: each message is a list of
// statements, run in one transaction and answered once it is committed (or rolled back, with the
// error's message). The caller's thread goes on meanwhile, and what it hands in while one
// transaction runs goes into the next: one commit for many. Opens the file as the API does
// (node-sqlite.ts: WAL, the same synchronous setting, a busy timeout), and imports nothing else,
// so that it runs as it is wherever the module that starts it runs.
import { parentPort, workerData } from 'node:worker_threads';
import { openNodeSqlite } from './node-sqlite.ts';

/** What the thread is given: the file, and the synchronous setting of the connection that starts it. */
export interface WriterJob {
  file: string;
  synchronous: 'NORMAL' | 'FULL';
}

/** One statement, as a query builder compiles it. */
export interface WriterStatement {
  sql: string;
  parameters: readonly unknown[];
}

if (parentPort) {
  const port = parentPort;
  const { file, synchronous } = workerData as WriterJob;
  const db = openNodeSqlite(file, synchronous);
  port.on('message', (statements: WriterStatement[] | null) => {
    if (statements === null) {
      db.close();
      port.close();
      return;
    }
    try {
      // IMMEDIATE: the write lock is taken (or waited for) before the first statement, not halfway.
      db.prepare('BEGIN IMMEDIATE').run([]);
      try {
        for (const { sql, parameters } of statements) db.prepare(sql).run(parameters);
        db.prepare('COMMIT').run([]);
      } catch (error) {
        db.prepare('ROLLBACK').run([]);
        throw error;
      }
      port.postMessage(null);
    } catch (error) {
      port.postMessage(error instanceof Error ? error.message : String(error));
    }
  });
}
