import { openNodeSqlite } from './node-sqlite.ts';

/** The file a writer writes to, and the synchronous setting of the connection that opens it. */
export interface WriterJob {
  file: string;
  synchronous: 'NORMAL' | 'FULL';
}

/** One statement, as a query builder compiles it. */
interface WriterStatement {
  sql: string;
  parameters: readonly unknown[];
}

/** Transactions written on a connection of their own, one at a time, in the order given. */
export interface SqliteWriter {
  /** Runs the statements in one transaction; resolves once it is committed, rejects (nothing written) if it is not. */
  write(statements: readonly WriterStatement[]): Promise<void>;
  /** Closes the connection; a write after it is refused. */
  close(): Promise<void>;
}

/**
 * A writer of transactions on an SQLite file, on a connection of its own opened as the API opens
 * its own (node-sqlite.ts: WAL, the same synchronous setting, a busy timeout), in the caller's
 * thread: a commit in WAL mode takes some tens of microseconds, less than handing the statements
 * to another thread and its answer back, which `send` waited for before each message. A file it
 * cannot open throws here, before anything is written.
 */
export function sqliteWriter({ file, synchronous }: WriterJob): SqliteWriter {
  const db = openNodeSqlite(file, synchronous);
  let closed = false;
  return {
    async write(statements) {
      if (closed) throw new Error('The database writer is closed.');
      // IMMEDIATE: the write lock is taken (or waited for) before the first statement, not halfway.
      db.prepare('BEGIN IMMEDIATE').run([]);
      try {
        for (const { sql, parameters } of statements) db.prepare(sql).run(parameters);
        db.prepare('COMMIT').run([]);
      } catch (error) {
        db.prepare('ROLLBACK').run([]);
        throw error;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}
