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

/** Builds the table for prefixes of one to `maxLength` letters of each nominee's name words. */
export function prefixTable(names: ReadonlyArray<readonly string[]>, maxLength: number, sortKey: (i: number) => string): PrefixTable {
  const keys = names.map((_, i) => sortKey(i));
  const order = Uint32Array.from(names.keys()).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b));
  const groups = new Map<string, number[][]>();
  for (const i of order) {
    // Per prefix, how many letters the nearest word of this name has beyond it.
    const nearest = new Map<string, number>();
    for (const word of names[i]) {
      for (let n = 1; n <= Math.min(maxLength, word.length); n++) {
        const prefix = word.slice(0, n);
        const distance = Math.min(word.length - n, FAR);
        if (distance < (nearest.get(prefix) ?? Infinity)) nearest.set(prefix, distance);
      }
    }
    for (const [prefix, distance] of nearest) {
      let entry = groups.get(prefix);
      if (!entry) groups.set(prefix, (entry = []));
      (entry[distance] ??= []).push(i);
    }
  }
  const table = new Map<string, Uint32Array>();
  for (const [prefix, byDistance] of groups) table.set(prefix, Uint32Array.from(byDistance.flat()));
  return { order, lookup: (prefix) => table.get(prefix) ?? EMPTY };
}
