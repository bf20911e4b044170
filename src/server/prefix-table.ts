/** Nominees by the first letters of the words of their names, for queries too short to score. */
export interface PrefixTable {
  /** Every nominee, in name order. */
  order: Uint32Array;
  /** The nominees with a name word starting with `prefix` (of at most the table's length): whole-word matches first, each group in name order. */
  lookup(prefix: string): Uint32Array;
}

const EMPTY = new Uint32Array(0);

/** Builds the table for prefixes of one to `maxLength` letters of each nominee's name words. */
export function prefixTable(names: ReadonlyArray<readonly string[]>, maxLength: number, sortKey: (i: number) => string): PrefixTable {
  const keys = names.map((_, i) => sortKey(i));
  const order = Uint32Array.from(names.keys()).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b));
  const groups = new Map<string, [number[], number[]]>();
  for (const i of order) {
    const best = new Map<string, 0 | 1>();
    for (const word of names[i]) {
      for (let n = 1; n <= Math.min(maxLength, word.length); n++) {
        const prefix = word.slice(0, n);
        if (word.length === n || !best.has(prefix)) best.set(prefix, word.length === n ? 0 : 1);
      }
    }
    for (const [prefix, rank] of best) {
      let entry = groups.get(prefix);
      if (!entry) groups.set(prefix, (entry = [[], []]));
      entry[rank].push(i);
    }
  }
  const table = new Map<string, Uint32Array>();
  for (const [prefix, [whole, start]] of groups) table.set(prefix, Uint32Array.from([...whole, ...start]));
  return { order, lookup: (prefix) => table.get(prefix) ?? EMPTY };
}
