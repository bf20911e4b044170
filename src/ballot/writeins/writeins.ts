import { atom } from 'nanostores';
import { $nominations } from '../nominations/nominations.ts';
import { voteCount } from '../../survey/ballots/votes.ts';

/** One write-in row: a nominee the voter could not find, and the category they name them in. */
export interface WriteIn {
  id: number;
  name: string;
  category: string;
}

/** The voter's write-ins, in the order they were added. */
export const $writeIns = atom<WriteIn[]>([]);

/** Counts the requests to bring the voter to the 'Add Write-In' button; the write-ins island focuses it on each. */
export const $writeInFocus = atom(0);

/** Asks the write-ins island to focus its 'Add Write-In' button (the empty search result's link does). */
export function askWriteInFocus(): void {
  $writeInFocus.set($writeInFocus.get() + 1);
}

let nextId = 1;

/** Adds an empty write-in row unless `limit` rows exist already; returns the new row's id, or undefined. */
export function addWriteIn(limit: number): number | undefined {
  const rows = $writeIns.get();
  if (rows.length >= limit) return undefined;
  const id = nextId++;
  $writeIns.set([...rows, { id, name: '', category: '' }]);
  return id;
}

/** Puts back the rows of a draft (ids renumbered from here), or empties the list. */
export function restoreWriteIns(rows: Array<Omit<WriteIn, 'id'>>): void {
  $writeIns.set(rows.map((row) => ({ name: row.name, category: row.category, id: nextId++ })));
}

/** Changes one write-in row. */
export function updateWriteIn(id: number, patch: Partial<Omit<WriteIn, 'id'>>): void {
  $writeIns.set($writeIns.get().map((row) => (row.id === id ? { ...row, ...patch } : row)));
}

/** Removes one write-in row. */
export function removeWriteIn(id: number): void {
  $writeIns.set($writeIns.get().filter((row) => row.id !== id));
}

/** The number of non-empty vote fields, nominations and write-ins (docs/spec.md, "Submitting"). */
export const $voteCount = atom(0);

/** Counts the votes again; called when a nomination or write-in field loses focus. */
export function recountVotes(): void {
  const names = $writeIns.get().map((row) => row.name);
  $voteCount.set(voteCount(Object.values($nominations.get()), names));
}
