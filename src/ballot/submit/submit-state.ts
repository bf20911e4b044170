import { atom } from 'nanostores';
import type { Delivery } from './delivery.ts';

/** The submit button's state (docs/spec.md, "Submitting"). */
export const $submission = atom<'idle' | 'submitting'>('idle');

/** The red notice under the ballot, shown for NOTICE_MS. */
export const $notice = atom<string | undefined>();

/** How this page's submission ended, set just before the thank-you page opens (analytics listens to it). */
export const $submitted = atom<Delivery | undefined>();

/**
 * True when the thank-you view shows in place of the form: the ballot could not leave because
 * the connection is down, so the thank-you page could not load either.
 */
export const $thanksInPlace = atom(false);

let deferred: Promise<typeof import('./deferred.ts')> | undefined;

/**
 * Loads the submit flow's and the drafts' code (sending, the outbox, the delivery), once. The
 * page asks for it when the voter starts on the ballot, while it is online, and not with the
 * page's first load.
 */
export function loadDeferred(): Promise<typeof import('./deferred.ts')> {
  deferred ??= import('./deferred.ts').catch((error: unknown) => {
    deferred = undefined;
    throw error;
  });
  return deferred;
}

// Back to a page the browser kept whole after it left for the thank-you page: the button is ready again.
if (typeof window !== 'undefined') {
  addEventListener('pageshow', (event) => {
    if (event.persisted) $submission.set('idle');
  });
}
