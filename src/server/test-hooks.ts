import type { RequestHooks } from './request-hooks.ts';

/** The header that sets the clock for one request when test hooks are on (an ISO 8601 time). */
const NOW_HEADER = 'X-Peervote-Now';
/** The header that injects a fault at a checkpoint: `{checkpoint}` throws there, `{checkpoint}:exit` ends the process there. */
const FAULT_HEADER = 'X-Peervote-Fault';
/** The header that holds a ballot for some milliseconds before its transaction, to test requests in flight. */
const DELAY_HEADER = 'X-Peervote-Delay';

/** An error thrown on purpose by an injected fault. */
class InjectedFault extends Error {
  constructor(point: string) {
    super(`fault injected at ${point}`);
    this.name = 'InjectedFault';
  }
}

/**
 * The request hooks of a server started with PEERVOTE_TEST_HOOKS on (the middleware installs
 * them): each request's headers may set its clock, inject a fault at a checkpoint, or delay it.
 */
export const testHooks: RequestHooks = {
  now(request) {
    const forced = request.headers.get(NOW_HEADER);
    return forced && !Number.isNaN(Date.parse(forced)) ? new Date(forced) : new Date();
  },
  checkpoint(request) {
    const fault = request.headers.get(FAULT_HEADER);
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
  },
  async delay(request) {
    const ms = Number(request.headers.get(DELAY_HEADER) ?? 0);
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(ms, 10_000)));
  },
};
