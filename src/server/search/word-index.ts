// The words of a nominee list in typed arrays: a national list of a million names holds a few
// million words but only some thousands of different ones, so each word is kept once, in a
// sorted vocabulary, and everything else is numbers: a few bytes a word where lists of strings
// and a general full-text index cost hundreds. The arrays are the index's interface, read
// directly by the loops that search it: a view object per item would cost more than its words.

/** Each item's words as ids into a sorted vocabulary, and each word's items. */
export interface WordIndex {
  /** Every word, sorted, once: a word's id is its place here. */
  readonly vocabulary: readonly string[];
  /** The word ids of every item, one item after the other, each item's in the order of its text. */
  readonly words: Uint32Array;
  /** Item i's word ids are `words` from `starts[i]` to before `starts[i + 1]`. */
  readonly starts: Uint32Array;
  /**
   * Item i's word ids again, side by side at `slots[i * SLOTS]`, so that a search reads them in
   * one place: the last one repeated to fill the item's slots, or MORE (the list's largest
   * value) in its first slot when it has none or more than SLOTS, to be read from `words`.
   */
  readonly slots: Uint16Array | Uint32Array;
  /** The items of every word, one word after the other, each word's ascending and once. */
  readonly items: Uint32Array;
  /** Word w's items are `items` from `itemStarts[w]` to before `itemStarts[w + 1]`. */
  readonly itemStarts: Uint32Array;
  /** The ids of the words starting with `prefix`: from the first to before the second. */
  range(prefix: string): [number, number];
  /** The ids of the words of exactly this many letters (UTF-16 units), ascending. */
  ofLength(length: number): Uint32Array;
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

/** Word ids kept side by side per item in `slots`: most names have two to four words. */
export const SLOTS = 4;

/** The value of a first slot whose item's words are read from `words`: the largest a slot holds. */
export const moreIn = (slots: Uint16Array | Uint32Array): number => (slots instanceof Uint16Array ? 0xffff : 0xffffffff);

/** Word ids are gathered in blocks of this many while the items are read, so the list never grows by copying. */
const BLOCK = 1 << 16;

const EMPTY = new Uint32Array(0);

/**
 * Indexes `count` items by the words `wordsOf` gives each; a word an item holds twice lists the
 * item once. Memory stays near the index's own size while it is built: the words are read once,
 * into blocks that are copied into the final list and let go one by one.
 */
export function wordIndex(count: number, wordsOf: (item: number) => readonly string[]): WordIndex {
  const firstIds = new Map<string, number>();
  const found: string[] = [];
  const blocks: Uint32Array[] = [];
  let block = new Uint32Array(BLOCK);
  let inBlock = 0;
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
      if (inBlock === BLOCK) {
        blocks.push(block);
        block = new Uint32Array(BLOCK);
        inBlock = 0;
      }
      block[inBlock++] = id;
      used++;
    }
    starts[i + 1] = used;
  }
  blocks.push(block.subarray(0, inBlock));
  // Ids in order of first sight, renumbered in the vocabulary's sorted order.
  const vocabulary = [...found].sort();
  const sortedId = new Uint32Array(found.length);
  vocabulary.forEach((word, id) => (sortedId[firstIds.get(word)!] = id));
  firstIds.clear();
  found.length = 0;
  const words = new Uint32Array(used);
  for (let b = 0; b < blocks.length; b++) {
    const from = b * BLOCK;
    const ids = blocks[b];
    for (let k = 0; k < ids.length; k++) words[from + k] = sortedId[ids[k]];
    blocks[b] = EMPTY;
  }

  // Two bytes a slot while every id fits below the MORE mark, as a vocabulary of up to 65,535 words does.
  const slots = vocabulary.length < 0xffff ? new Uint16Array(count * SLOTS) : new Uint32Array(count * SLOTS);
  const more = moreIn(slots);
  for (let i = 0; i < count; i++) {
    const size = starts[i + 1] - starts[i];
    if (size === 0 || size > SLOTS) slots[i * SLOTS] = more;
    else for (let k = 0; k < SLOTS; k++) slots[i * SLOTS + k] = words[starts[i] + Math.min(k, size - 1)];
  }

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

  // The ids by length, for the one-edit matches of a typed word, which differ from it by one letter at most.
  let byLength: { ids: Uint32Array; starts: Uint32Array } | undefined;
  const lengths = () => {
    const longest = vocabulary.reduce((most, word) => Math.max(most, word.length), 0);
    const lengthStarts = new Uint32Array(longest + 2);
    for (const word of vocabulary) lengthStarts[word.length + 1]++;
    for (let n = 0; n <= longest; n++) lengthStarts[n + 1] += lengthStarts[n];
    const ids = new Uint32Array(vocabulary.length);
    const at = lengthStarts.slice(0, longest + 1);
    vocabulary.forEach((word, w) => (ids[at[word.length]++] = w));
    return { ids, starts: lengthStarts };
  };

  return {
    vocabulary,
    words,
    starts,
    slots,
    items,
    itemStarts,
    range: (prefix) => [lowerBound(vocabulary, prefix), lowerBound(vocabulary, `${prefix}\uffff`)],
    ofLength(length) {
      byLength ??= lengths();
      return length < 0 || length + 1 >= byLength.starts.length ? EMPTY : byLength.ids.subarray(byLength.starts[length], byLength.starts[length + 1]);
    },
  };
}
