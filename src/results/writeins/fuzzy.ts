import { nameKey } from '../../survey/nominees/name-key.ts';

/** The three-letter pieces of a name key, padded so that first and last letters count: "wu" → " wu", "wu ". */
function trigrams(key: string): Set<string> {
  const grams = new Set<string>();
  for (const word of key.split(' ')) {
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  }
  return grams;
}

/** A name list's trigram index: finds the names closest to a text without comparing it with every name. */
export interface NameMatcher<T> {
  /** The `limit` closest items with a similarity of at least `min` (0 to 1, Dice's coefficient on trigrams), best first. */
  closest(text: string, limit: number, min?: number): Array<{ item: T; similarity: number }>;
}

/** Builds a matcher over items by their names (case, accents, titles and punctuation ignored). */
export function nameMatcher<T>(items: readonly T[], nameOf: (item: T) => string): NameMatcher<T> {
  const sizes: number[] = [];
  const postings = new Map<string, number[]>();
  items.forEach((item, i) => {
    const grams = trigrams(nameKey(nameOf(item)));
    sizes.push(grams.size);
    for (const gram of grams) {
      const list = postings.get(gram);
      if (list) list.push(i);
      else postings.set(gram, [i]);
    }
  });
  return {
    closest(text, limit, min = 0.3) {
      const grams = trigrams(nameKey(text));
      const shared = new Map<number, number>();
      for (const gram of grams) for (const i of postings.get(gram) ?? []) shared.set(i, (shared.get(i) ?? 0) + 1);
      return [...shared]
        .map(([i, n]) => ({ i, similarity: (2 * n) / (grams.size + sizes[i]) }))
        .filter((match) => match.similarity >= min)
        .sort((a, b) => b.similarity - a.similarity || a.i - b.i)
        .slice(0, limit)
        .map(({ i, similarity }) => ({ item: items[i], similarity }));
    },
  };
}
