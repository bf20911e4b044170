import { DETAIL_COLUMNS, type Nominee } from '../../survey/nominee.struct.ts';
import { HITS_PER_PAGE, type NomineeHit } from '../../survey/nominee-search.ts';
import { foldText, nomineeTerms, queryTerms } from '../../survey/nominee-text.ts';
import { prefixTable, type PrefixTable } from './prefix-table.ts';
import { wordIndex, type WordIndex } from './word-index.ts';

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
 * letters or more), and the ids of the words it matches at all.
 */
function termMatches(vocabulary: WordIndex, term: string, typos: boolean): { code: Uint8Array; matched: number[] } {
  const code = new Uint8Array(vocabulary.vocabulary.length).fill(NONE);
  const matched: number[] = [];
  const [from, to] = vocabulary.range(term);
  for (let w = from; w < to; w++) {
    code[w] = Math.min(vocabulary.vocabulary[w].length - term.length, FAR);
    matched.push(w);
  }
  if (typos && term.length >= MIN_TYPO_WORD)
    vocabulary.vocabulary.forEach((word, w) => {
      if (code[w] === NONE && withinOneEdit(word, term)) {
        code[w] = TYPO;
        matched.push(w);
      }
    });
  return { code, matched };
}

/** The best match of a term's codes among an item's words. */
function bestOf(code: Uint8Array, words: Uint32Array): number {
  let best = NONE;
  for (let k = 0; k < words.length; k++) if (code[words[k]] < best) best = code[words[k]];
  return best;
}

/**
 * Orders `order` by a small whole-number key, lowest first, keeping the order within a key: a
 * counting sort, linear in the matches (a one-letter query matches a third of 100,000 names).
 */
function byKey(order: ArrayLike<number>, key: (i: number) => number): number[] {
  const buckets: number[][] = [];
  for (let k = 0; k < order.length; k++) (buckets[key(order[k])] ??= []).push(order[k]);
  return buckets.flat();
}

/**
 * Builds the search index of a nominee list. Every query word must match the start of a word
 * of the name, case and accents folded, with one typo allowed in words of five letters or
 * more; a word that starts no name but starts a word of a detail column ("riverside",
 * "cardio") narrows the matches to nominees with that specialty, city or practice. Exact
 * matches rank first, then prefix matches, then those that needed a typo; within a rank the
 * names whose words are nearest the typed ones ("smit": Smith before Smithson), then the list's order.
 *
 * The index is a vocabulary of the names' words with each word's nominees, in typed arrays
 * (word-index.ts): a national list of a million nominees fits in some tens of megabytes. A query
 * starts from the words of its rarest term and checks each of those nominees' own words against
 * the other terms, so it costs the nominees that term matches, not the list.
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
  const names = wordIndex(nominees.length, (i) => nomineeTerms(nominees[i].name));
  const details = wordIndex(nominees.length, (i) => DETAIL_COLUMNS.flatMap((column) => nomineeTerms(nominees[i][column] ?? '')));
  let table: PrefixTable | undefined;

  // Each nominee's specialty as a number, so that ranking a slot's specialty first compares numbers.
  const specialtyIds = new Map<string, number>();
  const specialties = Int32Array.from(nominees, (nominee) => {
    const key = foldText(nominee.specialty ?? '').trim();
    if (!specialtyIds.has(key)) specialtyIds.set(key, specialtyIds.size);
    return specialtyIds.get(key)!;
  });
  const startsWord = (index: WordIndex, term: string) => {
    const [from, to] = index.range(term);
    return from < to;
  };

  function ranked(terms: string[], prefer: (i: number) => number, preferring: boolean): ArrayLike<number> {
    // A word is a name word unless it starts no name and does start a detail (a typo in a name stays a name word).
    const detailTerms = terms.filter((term) => !startsWord(names, term) && startsWord(details, term));
    const nameTerms = terms.filter((term) => !detailTerms.includes(term));
    const nameCodes = nameTerms.map((term) => termMatches(names, term, term.length > SHORT_WORD));
    const detailCodes = detailTerms.map((term) => termMatches(details, term, false).code);
    const keep = (i: number) => detailCodes.every((code) => bestOf(code, details.wordsOf(i)) !== NONE);
    const long = nameTerms.flatMap((term, t) => (term.length > SHORT_WORD ? [nameCodes[t]] : []));
    if (long.length) {
      // The nominees of the term matching fewest, each checked against every term by its own words.
      const size = (matches: { matched: number[] }) => matches.matched.reduce((sum, w) => sum + names.itemsOf(w).length, 0);
      const rarest = long.reduce((best, matches) => (size(matches) < size(best) ? matches : best));
      const candidates = new Uint32Array(size(rarest));
      let at = 0;
      for (const w of rarest.matched) {
        candidates.set(names.itemsOf(w), at);
        at += names.itemsOf(w).length;
      }
      if (rarest.matched.length > 1) candidates.sort();
      // Sorted by level of match (exact, prefix, typo), then nearness, then the list's order: one number each.
      const found: number[] = [];
      const rank: number[] = [];
      for (let k = 0; k < candidates.length; k++) {
        const i = candidates[k];
        if (k > 0 && candidates[k - 1] === i) continue;
        const own = names.wordsOf(i);
        let level = 0;
        let distance = 0;
        let matchesAll = true;
        for (const { code } of nameCodes) {
          const best = bestOf(code, own);
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
        if (!matchesAll || !keep(i)) continue;
        found.push(i);
        rank.push(level * 256 + Math.min(distance, 255));
      }
      const sorted = byKey(Uint32Array.from(found.keys()), (k) => rank[k]);
      const order = sorted.map((k) => found[k]);
      if (!preferring) return order;
      // Typos count before the slot's specialty; whole words before prefixes after it.
      const typos = sorted.findIndex((k) => rank[k] >= 512);
      return typos < 0 ? byKey(order, prefer) : [...byKey(order.slice(0, typos), prefer), ...byKey(order.slice(typos), prefer)];
    }
    table ??= prefixTable(names, nominees.length, SHORT_WORD, (i) => foldText(nominees[i].name));
    const short = nameTerms.map((term) => table!.lookup(term));
    if (short.length) {
      const [first] = [...short].sort((a, b) => a.length - b.length);
      const matches =
        nameTerms.length > 1 || detailTerms.length
          ? Array.from(first).filter((i) => keep(i) && nameCodes.every(({ code }) => bestOf(code, names.wordsOf(i)) !== NONE))
          : first;
      // The table lists the nearest words first (Mary before Martínez); the slot's specialty goes before the rest.
      return preferring ? byKey(matches, prefer) : matches;
    }
    // Only detail words ("cardiology"): every nominee with them, the slot's specialty first, in name order.
    const matches = Array.from(table.order).filter(keep);
    return preferring ? byKey(matches, prefer) : matches;
  }

  return {
    search(query, { page = 0, hitsPerPage = HITS_PER_PAGE, preferSpecialty } = {}) {
      const terms = [...new Set(queryTerms(query))];
      const folded = preferSpecialty ? foldText(preferSpecialty).trim() : '';
      const wanted = folded ? (specialtyIds.get(folded) ?? -1) : -1;
      const prefer = (i: number) => (specialties[i] === wanted ? 0 : 1);
      const order = terms.length ? ranked(terms, prefer, wanted >= 0) : undefined;
      const total = order ? order.length : nominees.length;
      const start = page * hitsPerPage;
      const hits: NomineeHit[] = [];
      for (let k = start; k < Math.min(total, start + hitsPerPage); k++) hits.push(toHit(nominees[order ? order[k] : k]));
      return { hits, nbHits: total, page, nbPages: Math.ceil(total / hitsPerPage), hitsPerPage };
    },
  };
}
