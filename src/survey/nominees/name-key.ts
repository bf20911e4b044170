import { foldText } from './nominee-text.ts';

// A person's name folded for comparison, shared by the API, which stores each write-in's folded
// name as the ballot is stored, and the operator's side, which groups write-ins and compares
// voters' names with the nominees' by it.

/** Titles before a name and credentials after it, left out when names are compared. */
const TITLES = new Set(['dr', 'doctor', 'prof', 'professor', 'mr', 'mrs', 'ms', 'miss']);
const CREDENTIALS = new Set(['md', 'do', 'dpm', 'dds', 'dmd', 'phd', 'rn', 'np', 'pa', 'facs', 'facp', 'jr', 'sr', 'ii', 'iii']);

/**
 * A person's name as words to compare: case and accents folded, punctuation and hyphens as
 * spaces, titles ("Dr.") and credentials ("MD") dropped. "Dr. José Álvarez-Ruiz, MD" → ["jose", "alvarez", "ruiz"].
 */
export function nameWords(name: string): string[] {
  // Plain ASCII, most names, needs no Unicode folding: the same words, several times faster (the tally folds a name per ballot).
  const words = (
    /^[\x20-\x7e]*$/.test(name)
      ? name
          .toLowerCase()
          .replace(/['`]/g, '')
          .split(/[^a-z0-9]+/)
      : foldText(name)
          .replace(/['\u2019\u02bc`\u00b4]/g, '')
          .split(/[^\p{L}\p{N}]+/u)
  ).filter(Boolean);
  while (words.length > 1 && TITLES.has(words[0])) words.shift();
  while (words.length > 1 && CREDENTIALS.has(words[words.length - 1])) words.pop();
  return words;
}

/** A name as one key: its words joined by a space. Write-ins are grouped by it, and stored with it. */
export function nameKey(name: string): string {
  return nameWords(name).join(' ');
}
