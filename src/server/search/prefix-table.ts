import { moreIn, release, SLOTS, type WordIndex } from './word-index.ts';

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

/** `units` copied into a list at least `least` long, of two bytes a unit when `wide` or already so. */
function regrown(units: Uint8Array | Uint16Array, least: number, wide: boolean): Uint8Array | Uint16Array {
  const length = least > units.length ? Math.max(least, units.length * 2) : units.length;
  const grown = wide || units instanceof Uint16Array ? new Uint16Array(length) : new Uint8Array(length);
  grown.set(units);
  return grown;
}

/**
 * The items in the order of their keys (JavaScript's order of texts, unit by UTF-16 unit), ties
 * in item order. The keys are read once into one typed list of their units, a byte each while
 * they hold no unit above 255 (folded names seldom do), so sorting a national list holds no
 * million texts; the items are bucketed by their first unit, then each bucket sorted.
 */
function sortedBy(count: number, sortKey: (i: number) => string): Uint32Array {
  const starts = new Uint32Array(count + 1);
  let units: Uint8Array | Uint16Array = new Uint8Array(Math.max(64, count * 16));
  for (let i = 0; i < count; i++) {
    const key = sortKey(i);
    const end = starts[i] + key.length;
    let bits = 0;
    for (let k = 0; k < key.length; k++) bits |= key.charCodeAt(k);
    const wide = bits > 0xff && units instanceof Uint8Array;
    if (end > units.length || wide) units = regrown(units, end, wide);
    for (let k = 0; k < key.length; k++) units[starts[i] + k] = key.charCodeAt(k);
    starts[i + 1] = end;
  }
  // An empty key goes first, in the bucket of unit 0, where the comparison puts it before any other.
  const firstUnit = (i: number) => (starts[i] < starts[i + 1] ? units[starts[i]] : 0);
  const buckets = new Uint32Array(0x10000 + 1);
  for (let i = 0; i < count; i++) buckets[firstUnit(i) + 1]++;
  for (let unit = 0; unit < 0x10000; unit++) buckets[unit + 1] += buckets[unit];
  const order = new Uint32Array(count);
  const next = buckets.slice(0, 0x10000);
  for (let i = 0; i < count; i++) order[next[firstUnit(i)]++] = i;
  const compare = (a: number, b: number) => {
    const aEnd = starts[a + 1];
    const bEnd = starts[b + 1];
    for (let x = starts[a], y = starts[b]; x < aEnd && y < bEnd; x++, y++) if (units[x] !== units[y]) return units[x] - units[y];
    return aEnd - starts[a] - (bEnd - starts[b]) || a - b;
  };
  for (let unit = 0; unit < 0x10000; unit++) if (buckets[unit + 1] - buckets[unit] > 1) order.subarray(buckets[unit], buckets[unit + 1]).sort(compare);
  release(units, starts, buckets, next);
  return order;
}

/**
 * Builds the table for prefixes of one to `maxLength` letters of each nominee's name words. It
 * is one list of nominees, grouped by prefix and, within a prefix, by distance (how many letters
 * the name's nearest word has beyond the prefix), so a lookup is a slice of it, never a copy.
 * It is built in two passes over the names, counting then filling, with nothing per nominee
 * beyond its places in the list.
 */
export function prefixTable(names: WordIndex, maxLength: number, sortKey: (i: number) => string): PrefixTable {
  const count = names.slots.length / SLOTS;
  const order = sortedBy(count, sortKey);
  // Each vocabulary word's prefixes, as ids, with the word's distance from each: word w's are at
  // `wordPrefixStarts[w]` to before `wordPrefixStarts[w + 1]`.
  const prefixIds = new Map<string, number>();
  const { vocabulary } = names;
  const wordPrefixStarts = new Uint32Array(vocabulary.length + 1);
  const prefixOf: number[] = [];
  const distanceOf: number[] = [];
  vocabulary.forEach((word, w) => {
    for (let n = 1; n <= Math.min(maxLength, word.length); n++) {
      const prefix = word.slice(0, n);
      let id = prefixIds.get(prefix);
      if (id === undefined) prefixIds.set(prefix, (id = prefixIds.size));
      prefixOf.push(id);
      distanceOf.push(Math.min(word.length - n, FAR));
    }
    wordPrefixStarts[w + 1] = prefixOf.length;
  });
  // Per nominee, each prefix once at its nearest word's distance, as its place in the table.
  const nearest = new Uint8Array(prefixIds.size).fill(GROUPS);
  const touched = new Uint32Array(Math.max(SLOTS, names.longest) * maxLength);
  const places = new Uint32Array(touched.length);
  const more = moreIn(names.slots);
  const placesOf = (i: number): number => {
    let n = 0;
    const overflow = names.slots[i * SLOTS] === more ? names.overflowOf(i) : undefined;
    const size = overflow ? overflow.length : SLOTS;
    for (let k = 0; k < size; k++) {
      const w = overflow ? overflow[k] : names.slots[i * SLOTS + k];
      for (let p = wordPrefixStarts[w]; p < wordPrefixStarts[w + 1]; p++) {
        const id = prefixOf[p];
        if (nearest[id] === GROUPS) touched[n++] = id;
        if (distanceOf[p] < nearest[id]) nearest[id] = distanceOf[p];
      }
    }
    for (let k = 0; k < n; k++) {
      places[k] = touched[k] * GROUPS + nearest[touched[k]];
      nearest[touched[k]] = GROUPS;
    }
    return n;
  };
  const starts = new Uint32Array(prefixIds.size * GROUPS + 1);
  for (let i = 0; i < count; i++) for (let k = 0, n = placesOf(i); k < n; k++) starts[places[k] + 1]++;
  for (let place = 0; place < prefixIds.size * GROUPS; place++) starts[place + 1] += starts[place];
  const table = new Uint32Array(starts[prefixIds.size * GROUPS]);
  const next = starts.slice(0, prefixIds.size * GROUPS);
  for (const i of order) for (let k = 0, n = placesOf(i); k < n; k++) table[next[places[k]]++] = i;
  release(next);
  return {
    order,
    lookup(prefix) {
      const id = prefixIds.get(prefix);
      return id === undefined ? EMPTY : table.subarray(starts[id * GROUPS], starts[(id + 1) * GROUPS]);
    },
  };
}
