/**
 * How nominee names and queries are cut into words for search: case and accents folded
 * ("José" → "jose"), hyphenated names found by each part, and a name with an apostrophe
 * found by its parts and as a whole, so that voters find a name however they type it.
 */

/** Letters that Unicode does not decompose into a base letter and a mark. */
const LETTERS: Record<string, string> = { ø: 'o', ł: 'l', đ: 'd', ð: 'd', ħ: 'h', ı: 'i', ß: 'ss', æ: 'ae', œ: 'oe', þ: 'th' };

/** Lower case without accents: "Łukasz Ørsted-Müller" → "lukasz orsted-muller". */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[øłđðħıßæœþ]/g, (letter) => LETTERS[letter]);
}

/** Titles a voter may type before a name; dropped from queries that hold more. */
const TITLES = new Set(['dr', 'doctor', 'prof']);

/** A text's words, each as its parts around apostrophes: "O'Brien-Ruiz" → [["o", "brien"], ["ruiz"]]. */
function splitWords(text: string): string[][] {
  return foldText(text)
    .split(/[^\p{L}\p{N}'\u2019\u02bc`\u00b4]+/u)
    .map((word) => word.split(/['\u2019\u02bc`\u00b4]+/).filter(Boolean))
    .filter((parts) => parts.length > 0);
}

/**
 * The words of a nominee's text for the index. Hyphens and other punctuation separate words;
 * a word joined by an apostrophe is indexed by its parts and as a whole ("O'Brien" → "o",
 * "brien", "obrien").
 */
export function nomineeTerms(text: string): string[] {
  return splitWords(text).flatMap((parts) => (parts.length > 1 ? [...parts, parts.join('')] : parts));
}

/**
 * The words of a query: a word joined by an apostrophe as one ("o'brien" → "obrien", which
 * the index also holds), and a leading title ("Dr.") dropped when a name follows.
 */
export function queryTerms(query: string): string[] {
  const terms = splitWords(query).map((parts) => parts.join(''));
  while (terms.length > 1 && TITLES.has(terms[0])) terms.shift();
  return terms;
}
