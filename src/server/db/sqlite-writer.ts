import { Worker } from 'node:worker_threads';
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
  // It holds one list of statements at a time: a small heap of its own will do.
  const worker = new Worker(new URL('./sqlite-writer.worker.ts', import.meta.url), {
    workerData: job,
    resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 },
  });
  const waiting: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  // Once the thread has failed or ended, every write is refused with why, rather than left waiting.
  let gone: Error | undefined;
  const fail = (error: Error) => {
    gone ??= error;
    for (const { reject } of waiting.splice(0)) reject(error);
  };
  worker.on('message', (error: string | null) => {
    const { resolve, reject } = waiting.shift()!;
    if (error === null) resolve();
    else reject(new Error(error));
  });
  worker.on('error', fail);
  const ended = new Promise<void>((resolve) =>
    worker.on('exit', (code) => {
      fail(new Error(`The database writer stopped with code ${code}.`));
      resolve();
    }),
  );
  return {
    write(statements) {
      return new Promise((resolve, reject) => {
        if (gone) return reject(gone);
        waiting.push({ resolve, reject });
        worker.postMessage(statements);
      });
    },
    async close() {
      // Asked rather than terminated: the thread closes its connection after the last transaction.
      worker.postMessage(null);
      await ended;
    },
  };
}
