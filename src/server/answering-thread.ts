import { Worker, type ResourceLimits } from 'node:worker_threads';

/** A thread of its own that answers each message posted to it. */
export interface AnsweringThread<Question, Answer> {
  /** Posts a question; resolves with the thread's answer to it, or rejects once the thread has failed or ended. */
  ask(question: Question): Promise<Answer>;
  /** Posts `null`, which asks the thread to finish and end, and resolves once it has. */
  close(): Promise<void>;
}

/** A question as a thread started with `keyed` receives it, and its answer as it posts it back. */
export interface Keyed<T> {
  id: number;
  body: T;
}

/**
 * Starts `file` (a module that answers every message but `null` with one message) in a thread
 * of its own. It answers in the order the questions were posted; or, with `keyed`, in any order,
 * each question posted as { id, body } and answered as { id, body } (a thread that waits on a
 * server for each). Whenever the thread fails or ends, and however, every question waiting and
 * every question asked after is refused with `what` stopped and why, rather than left waiting.
 */
export function answeringThread<Question, Answer>(
  file: URL,
  what: string,
  options: { workerData?: unknown; resourceLimits?: ResourceLimits; keyed?: boolean },
): AnsweringThread<Question, Answer> {
  const { keyed, ...settings } = options;
  const worker = new Worker(file, settings);
  // In the order asked: unkeyed answers go to the first.
  const waiting = new Map<number, { resolve: (answer: Answer) => void; reject: (error: Error) => void }>();
  let next = 0;
  let gone: Error | undefined;
  const fail = (error: Error) => {
    gone ??= error;
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  worker.on('message', (message: Answer | Keyed<Answer>) => {
    const id = keyed ? (message as Keyed<Answer>).id : waiting.keys().next().value;
    if (id === undefined) return;
    const one = waiting.get(id);
    waiting.delete(id);
    one?.resolve(keyed ? (message as Keyed<Answer>).body : (message as Answer));
  });
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
        const id = next++;
        waiting.set(id, { resolve, reject });
        worker.postMessage(keyed ? ({ id, body: question } satisfies Keyed<Question>) : question);
      }),
    async close() {
      worker.postMessage(null);
      await ended;
    },
  };
}
