// The words of a nominee list in typed arrays: a national list of a million names holds a few
// million words but only some thousands of different ones, so each word is kept once, in a
// sorted vocabulary, and everything else is numbers: a few bytes a word where lists of strings
// and a general full-text index cost hundreds. The arrays are the index's interface, read
// directly by the loops that search it: a view object per item would cost more than its words.

/** Each item's words as ids into a sorted vocabulary, and each word's items. */
export interface WordIndex {
  /** Every word, sorted, once: a word's id is its place here. */
  readonly vocabulary: readonly string[];
  /** The most words an item has. */
  readonly longest: number;
  /**
   * Item i's word ids side by side at `slots[i * SLOTS]`, so that a search reads them in one
   * place: the last one repeated to fill the item's slots (a word twice changes no best match),
   * or `moreIn(slots)` in its first slot when it has none or more than SLOTS, which `overflowOf` gives.
   */
  readonly slots: Uint16Array | Uint32Array;
  /** The word ids of an item that has none or more than SLOTS, in the order of its text. */
  overflowOf(item: number): Uint32Array;
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

/** The value of a first slot whose item's words are read from `overflowOf`: the largest a slot holds. */
export const moreIn = (slots: Uint16Array | Uint32Array): number => (slots instanceof Uint16Array ? 0xffff : 0xffffffff);

/**
 * Hands back the memory of lists used only while an index is built, at once rather than at the
 * collector's next full pass, which may come after the next lists are made: at a million
 * nominees that is tens of megabytes off the build's peak. The lists are empty afterwards.
 */
export function release(...lists: Array<Uint8Array | Uint16Array | Uint32Array | Int32Array>): void {
  for (const list of lists) if (list.buffer instanceof ArrayBuffer && !list.buffer.detached) list.buffer.transfer(0);
}

/** Word ids are gathered in blocks of this many while the items are read, so the list never grows by copying. */
const BLOCK = 1 << 16;

const EMPTY = new Uint32Array(0);

/**
 * Indexes `count` items by the words `wordsOf` gives each; a word an item holds twice lists the
 * item once. Memory stays near the index's own size while it is built: the words are read once,
 * into blocks that are copied into one list and let go one by one, and that list, read into the
 * slots and the words' lists of items, is let go in turn.
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
    release(ids);
  }
  release(sortedId);

  // Two bytes a slot while every id fits below the MORE mark, as a vocabulary of up to 65,535 words does.
  // The few items that do not fit their slots keep their words in a list of their own, found by binary search.
  const slots = vocabulary.length < 0xffff ? new Uint16Array(count * SLOTS) : new Uint32Array(count * SLOTS);
  const more = moreIn(slots);
  const overflowItems: number[] = [];
  const overflowStarts: number[] = [0];
  const overflowWords: number[] = [];
  let longest = 0;
  for (let i = 0; i < count; i++) {
    const size = starts[i + 1] - starts[i];
    longest = Math.max(longest, size);
    if (size > 0 && size <= SLOTS) for (let k = 0; k < SLOTS; k++) slots[i * SLOTS + k] = words[starts[i] + Math.min(k, size - 1)];
    else {
      slots[i * SLOTS] = more;
      overflowItems.push(i);
      for (let k = starts[i]; k < starts[i + 1]; k++) overflowWords.push(words[k]);
      overflowStarts.push(overflowWords.length);
    }
  }
  const overflow = { items: Uint32Array.from(overflowItems), starts: Uint32Array.from(overflowStarts), words: Uint32Array.from(overflowWords) };

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
  release(last, next, words, starts);

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
    longest,
    slots,
    overflowOf(item) {
      let low = 0;
      let high = overflow.items.length;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (overflow.items[mid] < item) low = mid + 1;
        else high = mid;
      }
      return overflow.items[low] === item ? overflow.words.subarray(overflow.starts[low], overflow.starts[low + 1]) : EMPTY;
    },
    items,
    itemStarts,
    range: (prefix) => [lowerBound(vocabulary, prefix), lowerBound(vocabulary, `${prefix}\uffff`)],
    ofLength(length) {
      byLength ??= lengths();
      return length < 0 || length + 1 >= byLength.starts.length ? EMPTY : byLength.ids.subarray(byLength.starts[length], byLength.starts[length + 1]);
    },
  };
}
