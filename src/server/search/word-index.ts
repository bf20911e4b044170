// The words of a nominee list in typed arrays: a national list of a million names holds a few
// million words but only some thousands of different ones, so each word is kept once, in a
// sorted vocabulary, and everything else is numbers: a few bytes a word where lists of strings
// and a general full-text index cost hundreds.

/** Each item's words as ids into a sorted vocabulary, and each word's items. */
export interface WordIndex {
  /** Every word, sorted, once: a word's id is its place here. */
  readonly vocabulary: readonly string[];
  /** The ids of item i's words, in the order of its text. */
  wordsOf(item: number): Uint32Array;
  /** The items holding word w, ascending. */
  itemsOf(word: number): Uint32Array;
  /** The ids of the words starting with `prefix`: from the first to before the second. */
  range(prefix: string): [number, number];
}

/** The first place in a sorted list whose word is not below `text`. */
function lowerBound(sorted: readonly string[], text: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid] < text) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Indexes `count` items by the words `wordsOf` gives each; a word an item holds twice lists the item once. */
export function wordIndex(count: number, wordsOf: (item: number) => readonly string[]): WordIndex {
  const firstIds = new Map<string, number>();
  const found: string[] = [];
  let ids = new Uint32Array(Math.max(16, count * 3));
  const starts = new Uint32Array(count + 1);
  let used = 0;
  for (let i = 0; i < count; i++) {
    for (const word of wordsOf(i)) {
      let id = firstIds.get(word);
      if (id === undefined) {
        id = found.length;
        firstIds.set(word, id);
        found.push(word);
      }
      if (used === ids.length) {
        const grown = new Uint32Array(ids.length * 2);
        grown.set(ids);
        ids = grown;
      }
      ids[used++] = id;
    }
    starts[i + 1] = used;
  }
  // Ids in order of first sight, renumbered in the vocabulary's sorted order.
  const vocabulary = [...found].sort();
  const sortedId = new Uint32Array(found.length);
  vocabulary.forEach((word, id) => (sortedId[firstIds.get(word)!] = id));
  const words = ids.slice(0, used);
  for (let k = 0; k < used; k++) words[k] = sortedId[words[k]];

  // Each word's items: counted, then filled in item order, so that each list is ascending.
  const itemStarts = new Uint32Array(vocabulary.length + 1);
  const last = new Int32Array(vocabulary.length).fill(-1);
  for (let i = 0; i < count; i++)
    for (let k = starts[i]; k < starts[i + 1]; k++)
      if (last[words[k]] !== i) {
        last[words[k]] = i;
        itemStarts[words[k] + 1]++;
      }
  for (let w = 0; w < vocabulary.length; w++) itemStarts[w + 1] += itemStarts[w];
  const items = new Uint32Array(itemStarts[vocabulary.length]);
  const next = itemStarts.slice(0, vocabulary.length);
  last.fill(-1);
  for (let i = 0; i < count; i++)
    for (let k = starts[i]; k < starts[i + 1]; k++)
      if (last[words[k]] !== i) {
        last[words[k]] = i;
        items[next[words[k]]++] = i;
      }

  return {
    vocabulary,
    wordsOf: (item) => words.subarray(starts[item], starts[item + 1]),
    itemsOf: (word) => items.subarray(itemStarts[word], itemStarts[word + 1]),
    range: (prefix) => [lowerBound(vocabulary, prefix), lowerBound(vocabulary, `${prefix}\uffff`)],
  };
}
