import type { ServerConfig } from './config.ts';
import type { Checkpoint } from './repositories/ballots.repository.ts';

/** The header that sets the clock for one request when test hooks are on (an ISO 8601 time). */
export const NOW_HEADER = 'X-Peervote-Now';
/** The header that injects a fault at a checkpoint: `{checkpoint}` throws there, `{checkpoint}:exit` ends the process there. */
export const FAULT_HEADER = 'X-Peervote-Fault';
/** The header that holds a ballot for some milliseconds before its transaction, to test requests in flight. */
export const DELAY_HEADER = 'X-Peervote-Delay';

/** The time a request is handled at: the real clock, or X-Peervote-Now when test hooks are on. */
export function requestTime(request: Request, config: Pick<ServerConfig, 'testHooks'>): Date {
  const forced = config.testHooks ? request.headers.get(NOW_HEADER) : null;
  if (forced && !Number.isNaN(Date.parse(forced))) return new Date(forced);
  return new Date();
}

/** An error thrown on purpose by an injected fault. */
export class InjectedFault extends Error {
  constructor(point: string) {
    super(`fault injected at ${point}`);
    this.name = 'InjectedFault';
  }
}

/** The checkpoint function for one request: does nothing unless test hooks are on and the request asks for a fault. */
export function faultInjector(request: Request, config: Pick<ServerConfig, 'testHooks'>): (point: Checkpoint) => void {
  const fault = config.testHooks ? request.headers.get(FAULT_HEADER) : null;
  if (!fault) return () => {};
  const [at, mode] = fault.split(':');
  return (point) => {
    if (point !== at) return;
    if (mode === 'exit') {
      // A crash mid-transaction: nothing is committed, nothing is cleaned up.
      process.stderr.write(`peervote: exiting at checkpoint ${point} (test fault)\n`);
      process.exit(86);
    }
    throw new InjectedFault(point);
  };
}

/** Waits as long as X-Peervote-Delay asks when test hooks are on. */
export async function injectedDelay(request: Request, config: Pick<ServerConfig, 'testHooks'>): Promise<void> {
  const ms = config.testHooks ? Number(request.headers.get(DELAY_HEADER) ?? 0) : 0;
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(ms, 10_000)));
}
