import { outboxExists, withOutbox } from '../ballot/submit/outbox-db.ts';

/**
 * Starts sending this device's kept ballots, and offering those kept for a day
 * (src/thanks/kept-ballots.ts), when it keeps ballots not yet answered for good: pages load the
 * outbox's code only then (or when the voter submits), not with every first load. It stands above
 * the code it loads, which never imports it back.
 */
export function sendKeptBallots(): void {
  if (typeof indexedDB === 'undefined') return;
  outboxExists()
    .then((exists) => (exists ? withOutbox('readonly', (store) => store.count()) : 0))
    .then(
      (count) => count > 0 && void import('./kept-ballots.ts').then((kept) => kept.startKeptBallots()),
      (error: unknown) => console.error('The ballots kept on this device could not be read.', error),
    );
}
