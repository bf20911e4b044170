import MiniSearch from 'minisearch';
import { DETAIL_COLUMNS, type Nominee } from '../../survey/nominee.struct.ts';
import { HITS_PER_PAGE, type NomineeHit } from '../../survey/nominee-search.ts';
import { foldText, nomineeTerms, queryTerms } from '../../survey/nominee-text.ts';
import { prefixTable, type PrefixTable } from './prefix-table.ts';

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

/** How closely a name's words match the query words: 0 every word exactly, 1 at least as prefixes, 2 with a typo. */
function tier(words: readonly string[], terms: readonly string[]): 0 | 1 | 2 {
  let worst: 0 | 1 | 2 = 0;
  for (const term of terms) {
    if (words.includes(term)) continue;
    if (!words.some((word) => word.startsWith(term))) return 2;
    worst = 1;
  }
  return worst;
}

/** True when a word of the sorted list starts with `prefix`. */
function hasPrefix(sorted: readonly string[], prefix: string): boolean {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid] < prefix) low = mid + 1;
    else high = mid;
  }
  return low < sorted.length && sorted[low].startsWith(prefix);
}

const startsAny = (words: readonly string[], term: string) => words.some((word) => word.startsWith(term));

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
 * matches rank first, then prefix matches, then those that needed a typo; within a rank
 * MiniSearch's BM25 score decides.
 *
 * Words of up to three letters match so many names at 100,000 nominees that scoring them is
 * slow and tells nothing: they filter the matches of the longer words, and a query of short
 * words alone is answered from a table of prefixes built with the index, whole words first,
 * then the names whose words are nearest the typed letters ("mar": Mary before Martínez).
 *
 * A search for a slot names the slot's sub-category as `preferSpecialty`: nominees of that
 * specialty rank first within each level of match, as Algolia's optionalFilters rank them
 * after typos and before the rest of its criteria.
 */
export function createNomineeEngine(nominees: readonly Nominee[]): NomineeEngine {
  const names = nominees.map((nominee) => nomineeTerms(nominee.name));
  const details = nominees.map((nominee) => DETAIL_COLUMNS.flatMap((column) => nomineeTerms(nominee[column] ?? '')));
  const nameVocabulary = [...new Set(names.flat())].sort();
  const detailVocabulary = [...new Set(details.flat())].sort();
  const index = new MiniSearch<{ i: number; name: string }>({
    idField: 'i',
    fields: ['name'],
    storeFields: [],
    tokenize: nomineeTerms,
    processTerm: (term) => term,
    searchOptions: {
      tokenize: (text) => text.split(' '),
      processTerm: (term) => term,
      prefix: true,
      fuzzy: (term) => (term.length >= MIN_TYPO_WORD ? 1 : false),
      combineWith: 'AND',
    },
  });
  index.addAll(nominees.map(({ name }, i) => ({ i, name })));
  let table: PrefixTable | undefined;

  // Each nominee's specialty as a number, so that ranking a slot's specialty first compares numbers.
  const specialtyIds = new Map<string, number>();
  const specialties = Int32Array.from(nominees, (nominee) => {
    const key = foldText(nominee.specialty ?? '').trim();
    if (!specialtyIds.has(key)) specialtyIds.set(key, specialtyIds.size);
    return specialtyIds.get(key)!;
  });

  function ranked(terms: string[], prefer: (i: number) => number, preferring: boolean): ArrayLike<number> {
    // A word is a name word unless it starts no name and does start a detail (a typo in a name stays a name word).
    const detailTerms = terms.filter((term) => !hasPrefix(nameVocabulary, term) && hasPrefix(detailVocabulary, term));
    const nameTerms = terms.filter((term) => !detailTerms.includes(term));
    const long = nameTerms.filter((term) => term.length > SHORT_WORD);
    const short = nameTerms.filter((term) => term.length <= SHORT_WORD);
    const keep = (i: number) => short.every((term) => startsAny(names[i], term)) && detailTerms.every((term) => startsAny(details[i], term));
    if (long.length) {
      const tiers: number[][] = [[], [], []];
      for (const result of index.search(long.join(' '))) {
        const i = result.id as number;
        if (keep(i)) tiers[tier(names[i], nameTerms)].push(i);
      }
      // Typos count before the slot's specialty; whole words before prefixes after it.
      if (!preferring) return tiers.flat();
      return [...byKey([...tiers[0], ...tiers[1]], prefer), ...byKey(tiers[2], prefer)];
    }
    table ??= prefixTable(names, SHORT_WORD, (i) => foldText(nominees[i].name));
    if (short.length) {
      const [first, ...rest] = short.map((term) => table!.lookup(term)).sort((a, b) => a.length - b.length);
      const matches = rest.length || detailTerms.length ? first.filter(keep) : first;
      // The table lists the nearest words first (Mary before Martínez); the slot's specialty goes before the rest.
      return preferring ? byKey(matches, prefer) : matches;
    }
    // Only detail words ("cardiology"): every nominee with them, the slot's specialty first, in name order.
    const matches = table.order.filter(keep);
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
