// The page of a query's matches that a search answers: the matches are counted and put in
// order only as far as the page asked for needs, so a query matching a third of a national list
// costs one pass over its matches and no sorted copy of them.

/** Where each key's items go next: reused, as a search makes no garbage it can avoid. */
const keyPlaces = reusable(Uint32Array);

/**
 * Positions `start` to before `end` of `items` ordered by their keys (small whole numbers below
 * `keyCount`), lowest first, keeping the items' order within a key: a counting sort that writes
 * only the page, linear in the matches (a one-letter query matches a third of the list).
 */
export function pageByKey(items: Uint32Array, keys: Uint16Array, keyCount: number, start: number, end: number): number[] {
  const next = keyPlaces(keyCount).fill(0, 0, keyCount);
  for (let k = 0; k < keys.length; k++) next[keys[k]]++;
  let position = 0;
  for (let key = 0; key < keyCount; key++) {
    const size = next[key];
    next[key] = position;
    position += size;
  }
  const page: number[] = [];
  for (let k = 0; k < items.length; k++) {
    const at = next[keys[k]]++;
    if (at >= start && at < end) page[at - start] = items[k];
  }
  return page;
}

/**
 * Positions `start` to before `end` of `items` with the preferred ones first, each part in the
 * items' order. It stops reading once the page is full: the slot's specialty is common enough
 * that its first twelve come early in a list of thousands.
 */
export function pagePreferredFirst(items: ArrayLike<number>, preferred: (i: number) => boolean, start: number, end: number): number[] {
  const page: number[] = [];
  let position = 0;
  for (let k = 0; k < items.length && position < end; k++)
    if (preferred(items[k])) {
      if (position >= start) page.push(items[k]);
      position++;
    }
  // Every preferred item is placed and the page is not full: the others follow, from where the preferred ones end.
  for (let k = 0; k < items.length && position < end; k++)
    if (!preferred(items[k])) {
      if (position >= start) page.push(items[k]);
      position++;
    }
  return page;
}

/** The items that pass `test`, in their order, written to `into` from its start (which may be `items` itself). */
export function filtered(items: Uint32Array, test: (i: number) => boolean, into: Uint32Array): Uint32Array {
  let n = 0;
  for (let k = 0; k < items.length; k++) if (test(items[k])) into[n++] = items[k];
  return into.subarray(0, n);
}

/** A typed list reused from one call to the next: the one last given, or a new one when it is too short. */
export function reusable<T extends Uint32Array | Uint16Array>(List: new (length: number) => T): (length: number) => T {
  let list = new List(0);
  return (length) => (list.length >= length ? list : (list = new List(length)));
}
