import { Worker, type ResourceLimits } from 'node:worker_threads';

/** A thread of its own that answers each message posted to it, in the order they were posted. */
export interface AnsweringThread<Question, Answer> {
  /** Posts a question; resolves with the thread's answer to it, or rejects once the thread has failed or ended. */
  ask(question: Question): Promise<Answer>;
  /** Posts `null`, which asks the thread to finish and end, and resolves once it has. */
  close(): Promise<void>;
}

/**
 * Starts `file` (a module that answers every message but `null` with one message) in a thread
 * of its own with a small heap. Whenever the thread fails or ends, and however, every question
 * waiting and every question asked after is refused with `what` stopped and why, rather than
 * left waiting.
 */
export function answeringThread<Question, Answer>(
  file: URL,
  what: string,
  options: { workerData?: unknown; resourceLimits: ResourceLimits },
): AnsweringThread<Question, Answer> {
  const worker = new Worker(file, options);
  const waiting: Array<{ resolve: (answer: Answer) => void; reject: (error: Error) => void }> = [];
  let gone: Error | undefined;
  const fail = (error: Error) => {
    gone ??= error;
    for (const { reject } of waiting.splice(0)) reject(error);
  };
  worker.on('message', (answer: Answer) => waiting.shift()?.resolve(answer));
  worker.on('error', fail);
  const ended = new Promise<void>((resolve) =>
    worker.on('exit', (code) => {
      fail(new Error(`${what} stopped with code ${code}.`));
      resolve();
    }),
  );
  return {
    ask: (question) =>
      new Promise((resolve, reject) => {
        if (gone) return reject(gone);
        waiting.push({ resolve, reject });
        worker.postMessage(question);
      }),
    async close() {
      worker.postMessage(null);
      await ended;
    },
  };
}
