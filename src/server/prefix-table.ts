/** Nominees by the first letters of their words, for queries too short to score. */
export interface PrefixTable {
  /** The nominees with a word starting with `prefix` (at most the table's length): name matches first, in name order. */
  lookup(prefix: string): Uint32Array;
}

const EMPTY = new Uint32Array(0);

/**
 * Builds the table for prefixes of one to `maxLength` letters. Within a prefix, nominees whose
 * name has the prefix as a whole word come first, then names with a word starting with it, then
 * nominees matched only by a detail column (specialty, city, practice); each group in name order.
 */
export function prefixTable(
  words: ReadonlyArray<{ name: readonly string[]; all: readonly string[] }>,
  maxLength: number,
  sortKey: (i: number) => string,
): PrefixTable {
  const keys = words.map((_, i) => sortKey(i));
  const order = words.map((_, i) => i).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b));
  const groups = new Map<string, [number[], number[], number[]]>();
  for (const i of order) {
    const best = new Map<string, number>();
    for (const [group, list] of [[0, words[i].name], [2, words[i].all]] as const) {
      for (const word of list) {
        for (let n = 1; n <= Math.min(maxLength, word.length); n++) {
          const prefix = word.slice(0, n);
          const rank = group === 0 ? (word.length === n ? 0 : 1) : 2;
          if (rank < (best.get(prefix) ?? 3)) best.set(prefix, rank);
        }
      }
    }
    for (const [prefix, rank] of best) {
      let entry = groups.get(prefix);
      if (!entry) groups.set(prefix, (entry = [[], [], []]));
      entry[rank].push(i);
    }
  }
  const table = new Map<string, Uint32Array>();
  for (const [prefix, entry] of groups) table.set(prefix, Uint32Array.from(entry.flat()));
  return { lookup: (prefix) => table.get(prefix) ?? EMPTY };
}
