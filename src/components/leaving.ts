/**
 * The event a page's own link dispatches before it leaves the page for another of the same
 * ballot (the language switch): what the page must keep first (the draft) hands its promise to
 * `waitFor`, and the link follows once each has settled.
 */
const LEAVING = 'peervote:leaving';

/** The event's name as a type: the ballot's code listens for it by this literal. */
export type Leaving = typeof LEAVING;

export type LeavingEvent = CustomEvent<{ waitFor: (work: Promise<unknown>) => void }>;

/** Dispatches LEAVING; resolves once what the page's code handed to it has settled (at once when nothing). */
export async function beforeLeaving(): Promise<void> {
  const work: Array<Promise<unknown>> = [];
  dispatchEvent(new CustomEvent(LEAVING, { detail: { waitFor: (promise: Promise<unknown>) => work.push(promise) } }) satisfies LeavingEvent);
  await Promise.allSettled(work);
}
