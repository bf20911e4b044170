import type { Nominee } from '../../survey/nominees/nominee.struct.ts';
import { HITS_PER_PAGE, type NomineeHit } from '../../survey/nominees/nominee-search.ts';
import { foldText, nomineeTerms, queryTerms } from '../../survey/nominees/nominee-text.ts';
import { prefixTable, type PrefixTable } from './prefix-table.ts';
import { filtered, pageByKey, pagePreferredFirst, reusable } from './result-page.ts';
import { detailValues } from './detail-values.ts';
import { moreIn, SLOTS, wordIndex, type WordIndex } from './word-index.ts';

/** One page of hits for a query, with the count of all matches. */
interface EnginePage {
  hits: NomineeHit[];
  nbHits: number;
  page: number;
  nbPages: number;
  hitsPerPage: number;
}

/** How one search is asked: the page, and the specialty whose nominees rank first (the slot's sub-category). */
interface SearchOptions {
  page?: number;
  hitsPerPage?: number;
  /** Nominees whose specialty is this (case and accents folded) rank first within each level of match. */
  preferSpecialty?: string;
}

/** A nominee list's in-memory search index. */
export interface NomineeEngine {
  /** One page of nominees matching every word of the query, best first. */
  search(query: string, options?: SearchOptions): EnginePage;
}

/**
 * Words this long or longer may hold one typo; shorter words must match exactly or as a prefix.
 * Exported only so the search bench (which builds its typo queries past it) can check it directly; the product reaches it through the nominee engine.
 * @internal
 */
export const MIN_TYPO_WORD = 5;

/** Query words this short match too many names to score: they are looked up in the prefix table. */
const SHORT_WORD = 3;

/** Algolia's record shape for a nominee: its id again as `objectID`; the private columns (license) left out. */
export function toHit(nominee: Nominee): NomineeHit {
  const { license: _private, ...shown } = nominee;
  return { objectID: nominee.id, ...shown };
}

/** A term's match with a word: 0 the word itself, 1 to FAR letters more for a word it begins, TYPO one edit away, NONE no match. */
const TYPO = 16;
const NONE = 255;
/** Prefix matches this many letters or more longer than the term rank together. */
const FAR = 15;

/**
 * One edit or less between two words (Levenshtein: a letter replaced, dropped or added), checked in one pass.
 * @internal exported for the search benchmark's linear-scan baseline
 */
export function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

/**
 * How `term` matches each word of a vocabulary, by word id (TYPO only in words of MIN_TYPO_WORD
 * letters or more, looked for among the words one letter shorter to one letter longer), and the
 * ids of the words it matches at all. `code` comes NONE throughout, and is NONE again once its
 * `matched` words are set back.
 */
function termMatches(index: WordIndex, term: string, typos: boolean, code: Uint8Array): { code: Uint8Array; matched: number[] } {
  const matched: number[] = [];
  const [from, to] = index.range(term);
  for (let w = from; w < to; w++) {
    code[w] = Math.min(index.vocabulary[w].length - term.length, FAR);
    matched.push(w);
  }
  if (typos && term.length >= MIN_TYPO_WORD)
    for (let length = term.length - 1; length <= term.length + 1; length++)
      for (const w of index.ofLength(length))
        if (code[w] === NONE && withinOneEdit(index.vocabulary[w], term)) {
          code[w] = TYPO;
          matched.push(w);
        }
  return { code, matched };
}

/** The best match of a term's codes among the words of item i: its four slots (SLOTS), or its words when they do not fit there. */
function bestOf(code: Uint8Array, index: WordIndex, more: number, i: number): number {
  const { slots } = index;
  const at = i * SLOTS;
  if (slots[at] !== more) return Math.min(code[slots[at]], code[slots[at + 1]], code[slots[at + 2]], code[slots[at + 3]]);
  let best = NONE;
  for (const w of index.overflowOf(i)) if (code[w] < best) best = code[w];
  return best;
}

/** How many times longer than the candidates a term's lists may be and still be marked to narrow them. */
const MARK_RATIO = 16;

/** The rank of a match with no typo and no specialty preferred: level (exact 0, prefix 1, typo 2) times 256, plus nearness. */
const RANKS = 3 * 256;

/** The nominees of a query and the page asked for: their count, and the page's nominees by position in the list. */
interface Found {
  total: number;
  page: ArrayLike<number>;
}

/**
 * Builds the search index of a nominee list. Every query word must match the start of a word
 * of the name, case and accents folded, with one typo allowed in words of five letters or
 * more; a word that starts no name but starts a word of a detail column ("riverside",
 * "cardio") narrows the matches to nominees with that specialty, city or practice. Exact
 * matches rank first, then prefix matches, then those that needed a typo; within a rank the
 * names whose words are nearest the typed ones ("smit": Smith before Smithson), then the list's order.
 *
 * The index is a vocabulary of the names' words with each word's nominees and each nominee's
 * words, in typed arrays (word-index.ts), and the detail columns' distinct values with each
 * value's nominees (detail-values.ts): a national list of a million nominees fits in some tens of
 * megabytes beside the list itself. A query starts from the nominees of its rarest term, narrows
 * them by marking the other terms' nominees, and checks those left by their own words, so it
 * costs the nominees its terms match, not the list; only the page asked for is put in order
 * (result-page.ts).
 *
 * Words of up to three letters match so many names that they filter the matches of the
 * longer words, and a query of short words alone is answered from a table of prefixes built
 * with the index, whole words first, then the names whose words are nearest the typed letters
 * ("mar": Mary before Martínez).
 *
 * A search for a slot names the slot's sub-category as `preferSpecialty`: nominees of that
 * specialty rank first within each level of match, as Algolia's optionalFilters rank them
 * after typos and before the rest of its criteria.
 */
export function createNomineeEngine(nominees: readonly Nominee[]): NomineeEngine {
  const count = nominees.length;
  const names = wordIndex(count, (i) => nomineeTerms(nominees[i].name));
  const details = detailValues(nominees);
  let table: PrefixTable | undefined;

  // Each specialty as a number, so that ranking a slot's specialty first compares numbers.
  const specialtyColumn = details.specialty;
  const specialtyIds = new Map<string, number>();
  const specialtyOfValue = new Int32Array(details.values.length).fill(-1);
  for (const v of specialtyColumn)
    if (specialtyOfValue[v] < 0) {
      const key = foldText(details.values[v]).trim();
      if (!specialtyIds.has(key)) specialtyIds.set(key, specialtyIds.size);
      specialtyOfValue[v] = specialtyIds.get(key)!;
    }
  // A bit per nominee, for sets of nominees read in list order or tested one by one; clear between queries.
  const marks = new Uint32Array(Math.ceil(count / 32));
  const mark = (i: number) => {
    marks[i >>> 5] |= 1 << (i & 31);
  };
  const marked = (i: number) => (marks[i >>> 5] & (1 << (i & 31))) !== 0;
  // Lists that queries reuse rather than allocate, grown to the longest one needed: a query on a
  // national list would otherwise leave megabytes behind it for the collector.
  const codes: Uint8Array[] = [];
  const codeFor = (t: number) => (codes[t] ??= new Uint8Array(names.vocabulary.length).fill(NONE));
  const candidateList = reusable(Uint32Array);
  const foundList = reusable(Uint32Array);
  const keyList = reusable(Uint16Array);
  const matchList = reusable(Uint32Array);
  // A one-term query's best match per nominee, from its words' lists of nominees, so that it reads
  // nothing of the nominees themselves: NONE between queries.
  const bestCodes = new Uint8Array(count).fill(NONE);
  const more = moreIn(names.slots);

  /**
   * The nominees a term matches, ascending and once: each word's nominees marked, then read in
   * order. With `best` (and more than one word), each one's best match goes into `bestCodes`.
   */
  function nomineesOf({ code, matched }: { code: Uint8Array; matched: number[] }, best: boolean): Uint32Array {
    const { items, itemStarts } = names;
    if (matched.length === 1) return items.subarray(itemStarts[matched[0]], itemStarts[matched[0] + 1]);
    let most = 0;
    let low = marks.length;
    let high = -1;
    for (const w of matched) {
      const match = code[w];
      for (let k = itemStarts[w]; k < itemStarts[w + 1]; k++) {
        const i = items[k];
        if (best && match < bestCodes[i]) bestCodes[i] = match;
        mark(i);
      }
      if (itemStarts[w] < itemStarts[w + 1]) {
        low = Math.min(low, items[itemStarts[w]] >>> 5);
        high = Math.max(high, items[itemStarts[w + 1] - 1] >>> 5);
        most += itemStarts[w + 1] - itemStarts[w];
      }
    }
    const found = candidateList(most);
    let n = 0;
    for (let block = low; block <= high; block++) {
      let bits = marks[block];
      if (bits === 0) continue;
      marks[block] = 0;
      while (bits !== 0) {
        const lowest = bits & -bits;
        found[n++] = block * 32 + 31 - Math.clz32(lowest);
        bits ^= lowest;
      }
    }
    return found.subarray(0, n);
  }

  /** The items that are in `set` too, in their order, in `matchList`: `set` marked, `items` tested against the marks. */
  function alsoIn(items: Uint32Array, set: Uint32Array): Uint32Array {
    for (let k = 0; k < set.length; k++) mark(set[k]);
    const kept = filtered(items, marked, matchList(items.length));
    marks.fill(0);
    return kept;
  }

  const startsWord = (index: WordIndex, term: string) => {
    const [from, to] = index.range(term);
    return from < to;
  };

  /**
   * A query with a word of more than three letters: the nominees of its longer term matching
   * fewest, narrowed to those the other terms' lists hold where those lists are short enough to
   * mark, each then checked against every term by its own words, counted, and the page placed.
   */
  function rankedByName(
    nameTerms: string[],
    nameCodes: Array<{ code: Uint8Array; matched: number[] }>,
    preferred: ((i: number) => boolean) | undefined,
    keep: ((i: number) => boolean) | undefined,
    start: number,
    end: number,
  ): Found {
    const size = ({ matched }: { matched: number[] }) => matched.reduce((sum, w) => sum + names.itemStarts[w + 1] - names.itemStarts[w], 0);
    const rarest = nameCodes.filter((_, t) => nameTerms[t].length > SHORT_WORD).reduce((best, matches) => (size(matches) < size(best) ? matches : best));
    // One term: its match per nominee comes from its words' lists. More: every term's from the nominee's slots, read once.
    const alone = nameCodes.length === 1;
    const oneWord = rarest.matched.length === 1;
    const codes = alone ? [] : nameCodes.map(({ code }) => code);
    let candidates = nomineesOf(rarest, alone);
    // Marking a list costs a few nanoseconds a nominee, where reading a nominee's words from a national list costs a
    // fetch from memory: a term whose lists are not many times longer than the candidates narrows them first.
    for (const other of nameCodes.filter((matches) => matches !== rarest).sort((a, b) => size(a) - size(b))) {
      if (size(other) > MARK_RATIO * candidates.length) break;
      const { items, itemStarts } = names;
      for (const w of other.matched) for (let k = itemStarts[w]; k < itemStarts[w + 1]; k++) mark(items[k]);
      candidates = filtered(candidates, marked, matchList(candidates.length));
      marks.fill(0);
    }
    // Ordered by level of match (exact, prefix, typo), then nearness, then the list's order: one number each.
    // For a slot, typos still come last, and within each part the slot's specialty first.
    const found = foundList(candidates.length);
    const keys = keyList(candidates.length);
    let n = 0;
    for (let k = 0; k < candidates.length; k++) {
      const i = candidates[k];
      let fromLists = NONE;
      if (alone && oneWord) fromLists = rarest.code[rarest.matched[0]];
      else if (alone) {
        fromLists = bestCodes[i];
        bestCodes[i] = NONE;
      }
      let level = 0;
      let distance = 0;
      let matchesAll = true;
      for (let t = alone ? -1 : 0; t < codes.length; t++) {
        const best = t < 0 ? fromLists : bestOf(codes[t], names, more, i);
        if (best === NONE) {
          matchesAll = false;
          break;
        }
        if (best === TYPO) level = 2;
        else if (best > 0) {
          level = Math.max(level, 1);
          distance += best;
        }
      }
      if (!matchesAll || (keep && !keep(i))) continue;
      const rank = level * 256 + Math.min(distance, 255);
      found[n] = i;
      keys[n++] = preferred ? (level === 2 ? 2 * RANKS : 0) + (preferred(i) ? 0 : RANKS) + rank : rank;
    }
    return { total: n, page: pageByKey(found.subarray(0, n), keys.subarray(0, n), 4 * RANKS, start, end) };
  }

  function ranked(terms: string[], wanted: number, start: number, end: number): Found {
    const preferring = wanted >= 0;
    const preferred = (i: number) => specialtyOfValue[specialtyColumn[i]] === wanted;
    // A word is a name word unless it starts no name and does start a detail (a typo in a name stays a name word).
    const detailTerms = terms.filter((term) => !startsWord(names, term) && details.starts(term));
    const nameTerms = terms.filter((term) => !detailTerms.includes(term));
    // Every detail term starts a word of one of the nominee's detail values: its nominees marked from the values' lists.
    const holders = detailTerms.length ? details.holders(detailTerms) : undefined;
    const keep = holders && ((i: number) => (holders[i >>> 5] & (1 << (i & 31))) !== 0);
    if (nameTerms.some((term) => term.length > SHORT_WORD)) {
      const nameCodes = nameTerms.map((term, t) => termMatches(names, term, term.length > SHORT_WORD, codeFor(t)));
      try {
        return rankedByName(nameTerms, nameCodes, preferring ? preferred : undefined, keep, start, end);
      } finally {
        for (const { code, matched } of nameCodes) for (const w of matched) code[w] = NONE;
      }
    }
    table ??= prefixTable(names, SHORT_WORD, (i) => foldText(nominees[i].name));
    let matches: Uint32Array;
    if (nameTerms.length) {
      // The table's list for the term matching fewest, kept where every other term's list holds the nominee too.
      const [first, ...rest] = nameTerms.map((term) => table!.lookup(term)).sort((a, b) => a.length - b.length);
      matches = first;
      for (const other of rest) matches = alsoIn(matches, other);
      if (keep) matches = filtered(matches, keep, matches === first ? matchList(first.length) : matches);
    } else {
      // Only detail words ("cardiology"): every nominee with them, in name order.
      matches = keep ? filtered(table.order, keep, matchList(count)) : table.order;
    }
    // The table lists the nearest words first (Mary before Martínez); the slot's specialty goes before the rest.
    return { total: matches.length, page: preferring ? pagePreferredFirst(matches, preferred, start, end) : matches.subarray(start, end) };
  }

  return {
    search(query, { page = 0, hitsPerPage = HITS_PER_PAGE, preferSpecialty } = {}) {
      const terms = [...new Set(queryTerms(query))];
      const folded = preferSpecialty ? foldText(preferSpecialty).trim() : '';
      const wanted = folded ? (specialtyIds.get(folded) ?? -1) : -1;
      const start = page * hitsPerPage;
      const end = start + hitsPerPage;
      const found = terms.length ? ranked(terms, wanted, start, end) : undefined;
      const total = found ? found.total : count;
      const hits: NomineeHit[] = [];
      for (let k = start; k < Math.min(total, end); k++) hits.push(toHit(nominees[found ? found.page[k - start] : k]));
      return { hits, nbHits: total, page, nbPages: Math.ceil(total / hitsPerPage), hitsPerPage };
    },
  };
}
