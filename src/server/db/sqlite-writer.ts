import { answeringThread } from '../answering-thread.ts';
import type { WriterJob, WriterStatement } from './sqlite-writer.worker.ts';

/** Transactions written by a thread of its own (sqlite-writer.worker.ts), one at a time, in the order given. */
export interface SqliteWriter {
  /** Runs the statements in one transaction; resolves once it is committed, rejects (nothing written) if it is not. */
  write(statements: readonly WriterStatement[]): Promise<void>;
  /** Ends the thread once what was handed in is written. */
  close(): Promise<void>;
}

/**
 * A writer of transactions on an SQLite file, in a thread with a connection of its own: the
 * caller's thread is not held up by SQLite's work (which, on Node's synchronous `node:sqlite`,
 * stops everything else), and what it hands in meanwhile can go into the next transaction.
 */
export function sqliteWriter(job: WriterJob): SqliteWriter {
  // It holds one list of statements at a time: a small heap of its own will do. It answers null, or why it wrote nothing.
  const thread = answeringThread<readonly WriterStatement[], string | null>(new URL('./sqlite-writer.worker.ts', import.meta.url), 'The database writer', {
    workerData: job,
    resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 },
  });
  return {
    async write(statements) {
      const error = await thread.ask(statements);
      if (error !== null) throw new Error(error);
    },
    // Asked rather than terminated: the thread closes its connection after the last transaction.
    close: () => thread.close(),
  };
}
