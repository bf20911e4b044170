import MiniSearch from 'minisearch';
import { DETAIL_COLUMNS, type Nominee } from '../survey/nominee.struct.ts';
import { HITS_PER_PAGE, type NomineeHit } from '../survey/nominee-search.ts';
import { foldText, nomineeTerms, queryTerms } from '../survey/nominee-text.ts';
import { prefixTable, type PrefixTable } from './prefix-table.ts';

/** One page of hits for a query, with the count of all matches. */
export interface EnginePage {
  hits: NomineeHit[];
  nbHits: number;
  page: number;
  nbPages: number;
  hitsPerPage: number;
}

/** A nominee list's in-memory search index. */
export interface NomineeEngine {
  /** One page of nominees matching every word of the query, best first. */
  search(query: string, options?: { page?: number; hitsPerPage?: number }): EnginePage;
}

/** Words this long or longer may hold one typo; shorter words must match exactly or as a prefix. */
export const MIN_TYPO_WORD = 5;

/** Query words this short are matched against the prefix table rather than scored by MiniSearch. */
export const SHORT_WORD = 3;

/** Algolia's record shape for a nominee: its id again as `objectID`. */
export function toHit(nominee: Nominee): NomineeHit {
  return { objectID: nominee.id, ...nominee };
}

/** The words of a nominee that search looks at: its name first, then its detail columns. */
function wordsOf(nominee: Nominee): { name: string[]; all: string[] } {
  const name = nomineeTerms(nominee.name);
  return { name, all: [...name, ...DETAIL_COLUMNS.flatMap((column) => nomineeTerms(nominee[column] ?? ''))] };
}

/** How closely a nominee's words match the query words: 0 every word exactly, 1 at least as prefixes, 2 with a typo. */
function tier(words: readonly string[], terms: readonly string[]): 0 | 1 | 2 {
  let worst: 0 | 1 | 2 = 0;
  for (const term of terms) {
    if (words.includes(term)) continue;
    if (!words.some((word) => word.startsWith(term))) return 2;
    worst = 1;
  }
  return worst;
}

/**
 * Builds the search index of a nominee list. Every query word must match a word of the name
 * or of a detail column, as a prefix, case and accents folded, with one typo allowed in words
 * of five letters or more. Exact matches rank first, then prefix matches, then those that
 * needed a typo; within a rank MiniSearch's BM25 score (the name weighted ×3) decides.
 *
 * Words of up to three letters match so many nominees at 100,000 that scoring them is slow and
 * tells nothing: they filter the matches of the longer words, and a query of short words
 * alone is answered from a table of prefixes built with the index, in name order.
 */
export function createNomineeEngine(nominees: readonly Nominee[]): NomineeEngine {
  const words = nominees.map(wordsOf);
  const index = new MiniSearch<Nominee & { i: number }>({
    idField: 'i',
    fields: ['name', ...DETAIL_COLUMNS],
    storeFields: [],
    tokenize: nomineeTerms,
    processTerm: (term) => term,
    searchOptions: {
      processTerm: (term) => term,
      prefix: true,
      fuzzy: (term) => (term.length >= MIN_TYPO_WORD ? 1 : false),
      combineWith: 'AND',
      boost: { name: 3 },
    },
  });
  index.addAll(nominees.map((nominee, i) => ({ ...nominee, i })));
  let table: PrefixTable | undefined;

  function ranked(terms: string[]): ArrayLike<number> {
    const long = terms.filter((term) => term.length > SHORT_WORD);
    const short = terms.filter((term) => term.length <= SHORT_WORD);
    const hasShort = (i: number) => short.every((term) => words[i].all.some((word) => word.startsWith(term)));
    if (long.length === 0) {
      table ??= prefixTable(words, SHORT_WORD, (i) => foldText(nominees[i].name));
      const [first, ...rest] = short.map((term) => table!.lookup(term)).sort((a, b) => a.length - b.length);
      return rest.length ? first.filter((i) => hasShort(i)) : first;
    }
    const tiers: number[][] = [[], [], []];
    for (const result of index.search(long.join(' '), { tokenize: (text) => text.split(' ') })) {
      const i = result.id as number;
      if (short.length && !hasShort(i)) continue;
      tiers[tier(words[i].all, terms)].push(i);
    }
    return tiers.flat();
  }

  return {
    search(query, { page = 0, hitsPerPage = HITS_PER_PAGE } = {}) {
      const terms = [...new Set(queryTerms(query))];
      const order = terms.length ? ranked(terms) : undefined;
      const total = order ? order.length : nominees.length;
      const start = page * hitsPerPage;
      const hits: NomineeHit[] = [];
      for (let k = start; k < Math.min(total, start + hitsPerPage); k++) hits.push(toHit(nominees[order ? order[k] : k]));
      return { hits, nbHits: total, page, nbPages: Math.ceil(total / hitsPerPage), hitsPerPage };
    },
  };
}
