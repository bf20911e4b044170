import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { OperatorError } from '../../src/results/operator.ts';

/** Where a command writes its data: a file, or standard output; with backpressure. */
export interface Output {
  /** True when the data goes to standard output (a summary must then go to standard error). */
  readonly toStdout: boolean;
  write(text: string): Promise<void> | void;
  close(): Promise<void>;
}

/** Opens the output: the file `path`, or standard output when none is given. */
export function openOutput(path: string | undefined): Output {
  const stream: Writable = path ? createWriteStream(path) : process.stdout;
  let failed: Error | undefined;
  // A file that cannot be written is the operator's to fix, told in one line; a closed pipe (`| head`) ends the command quietly.
  stream.on(
    'error',
    (error: NodeJS.ErrnoException) =>
      (failed = error.code === 'EPIPE' ? error : new OperatorError(`Cannot write ${path ?? 'standard output'}: ${error.message}.`)),
  );
  return {
    toStdout: !path,
    write(text) {
      if (failed) throw failed;
      // One wait for the drain: `once` also ends it on an 'error', and takes its listeners off
      // either way. A race of a 'drain' wait and an 'error' wait left the latter on the stream
      // at every drain, one more each time (Node warned of a leak after ten).
      if (!stream.write(text)) {
        return once(stream, 'drain').then(
          () => {
            if (failed) throw failed;
          },
          (error: Error) => {
            throw failed ?? error;
          },
        );
      }
    },
    async close() {
      if (failed) throw failed;
      if (path) {
        (stream as WriteStream).end();
        await once(stream, 'finish').catch(() => undefined);
        if (failed) throw failed;
      }
    },
  };
}

/**
 * Progress on standard error, at most every half second: "export: 120,000 of 1,000,000 ballots (12%)".
 * Rewrites one line on a terminal, prints lines otherwise; silent when `quiet`.
 */
export function progress(label: string, total: number, quiet: boolean): { update(done: number): void; done(done: number): void } {
  let last = 0;
  const tty = process.stderr.isTTY;
  const line = (done: number) =>
    `${label}: ${done.toLocaleString('en')} of ${total.toLocaleString('en')} ballots (${total ? Math.floor((done / total) * 100) : 100}%)`;
  return {
    update(done) {
      if (quiet || Date.now() - last < 500) return;
      last = Date.now();
      process.stderr.write(tty ? `\r${line(done)}` : `${line(done)}\n`);
    },
    done(done) {
      if (!quiet) process.stderr.write(tty ? `\r${line(done)}\n` : `${line(done)}\n`);
    },
  };
}
