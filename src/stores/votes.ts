import { atom } from 'nanostores';
import { $nominations } from './nominations.ts';
import { $writeIns } from './writeins.ts';

/** The number of non-empty vote fields, nominations and write-ins (SPEC.md §4). */
export const $voteCount = atom(0);

/** Counts the votes again; called when a nomination or write-in field loses focus. */
export function recountVotes(): void {
  const nominations = Object.values($nominations.get()).filter(Boolean).length;
  const writeIns = $writeIns.get().filter((row) => row.name.trim() !== '').length;
  $voteCount.set(nominations + writeIns);
}
