import type { WordIndex } from './word-index.ts';

/** Nominees by the first letters of the words of their names, for queries too short to score. */
export interface PrefixTable {
  /** Every nominee, in name order. */
  order: Uint32Array;
  /**
   * The nominees with a name word starting with `prefix` (of at most the table's length), the
   * nearest first: whole-word matches, then names whose word is one letter longer, and so on
   * ("mar": Mar, Mary, Maria, …, Martinez); each group in name order.
   */
  lookup(prefix: string): Uint32Array;
}

const EMPTY = new Uint32Array(0);

/** Words this many letters or more longer than the prefix rank together. */
const FAR = 15;

/** Places per prefix in the table: one group per distance, 0 to FAR. */
const GROUPS = FAR + 1;

/**
 * Builds the table for prefixes of one to `maxLength` letters of each nominee's name words. It
 * is one list of nominees, grouped by prefix and, within a prefix, by distance (how many letters
 * the name's nearest word has beyond the prefix), so a lookup is a slice of it, never a copy.
 */
export function prefixTable(names: WordIndex, count: number, maxLength: number, sortKey: (i: number) => string): PrefixTable {
  const keys = Array.from({ length: count }, (_, i) => sortKey(i));
  const order = Uint32Array.from(keys.keys()).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b));
  keys.length = 0;
  // Each vocabulary word's prefixes, as ids, with the word's distance from each.
  const prefixIds = new Map<string, number>();
  const wordPrefixes = names.vocabulary.map((word) => {
    const prefixes: Array<[number, number]> = [];
    for (let n = 1; n <= Math.min(maxLength, word.length); n++) {
      const prefix = word.slice(0, n);
      let id = prefixIds.get(prefix);
      if (id === undefined) prefixIds.set(prefix, (id = prefixIds.size));
      prefixes.push([id, Math.min(word.length - n, FAR)]);
    }
    return prefixes;
  });
  // Per nominee, each prefix once at its nearest word's distance: `visit` is called with its place in the table.
  const nearest = new Map<number, number>();
  const eachPlace = (i: number, visit: (place: number) => void) => {
    nearest.clear();
    for (const word of names.wordsOf(i)) for (const [id, distance] of wordPrefixes[word]) if (distance < (nearest.get(id) ?? GROUPS)) nearest.set(id, distance);
    for (const [id, distance] of nearest) visit(id * GROUPS + distance);
  };
  const starts = new Uint32Array(prefixIds.size * GROUPS + 1);
  for (let i = 0; i < count; i++) eachPlace(i, (place) => starts[place + 1]++);
  for (let place = 0; place < prefixIds.size * GROUPS; place++) starts[place + 1] += starts[place];
  const table = new Uint32Array(starts[prefixIds.size * GROUPS]);
  const next = starts.slice(0, prefixIds.size * GROUPS);
  for (const i of order) eachPlace(i, (place) => (table[next[place]++] = i));
  return {
    order,
    lookup(prefix) {
      const id = prefixIds.get(prefix);
      return id === undefined ? EMPTY : table.subarray(starts[id * GROUPS], starts[(id + 1) * GROUPS]);
    },
  };
}
