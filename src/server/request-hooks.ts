import type { Checkpoint } from './intake/ballots.repository.ts';

/**
 * What a test may change about one request: the time it is handled at, a fault between a
 * ballot's writes, a wait before a ballot's transaction. Production runs with the real clock
 * and no faults; the test hooks (src/server/test-hooks.ts) are installed by the middleware
 * only when PEERVOTE_TEST_HOOKS is on, so no production module imports them.
 */
export interface RequestHooks {
  /** The time a request is handled at. */
  now(request: Request): Date;
  /** The function storeBallot runs at each checkpoint between a ballot's writes. */
  checkpoint(request: Request): (point: Checkpoint) => void;
  /** Waits before a ballot's transaction. */
  delay(request: Request): Promise<void>;
}

const realHooks: RequestHooks = {
  now: () => new Date(),
  checkpoint: () => () => {},
  delay: async () => {},
};

let hooks: RequestHooks = realHooks;

/** Installs request hooks for the whole process; the middleware calls it once, with the test hooks, when they are on. */
export function setRequestHooks(next: RequestHooks | undefined): void {
  hooks = next ?? realHooks;
}

/** The time a request is handled at: the real clock unless test hooks set it. */
export function requestTime(request: Request): Date {
  return hooks.now(request);
}

/** The function storeBallot runs between a ballot's writes: nothing unless test hooks inject a fault. */
export function ballotCheckpoints(request: Request): (point: Checkpoint) => void {
  return hooks.checkpoint(request);
}

/** Waits before a ballot's transaction when test hooks ask it to, to test requests in flight. */
export function holdBallot(request: Request): Promise<void> {
  return hooks.delay(request);
}
