import { foldText } from '../../survey/nominees/nominee-text.ts';

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

/** A name as one key: its words joined by a space. Write-ins are grouped by it. */
export function nameKey(name: string): string {
  return nameWords(name).join(' ');
}

/**
 * True when a nominee's name is the voter's name: the same words, or the same first and last
 * word with the nominee's other words among the voter's (a middle name the list leaves out);
 * a one-letter word stands for any word it begins ("J." for "Jane").
 */
const fits = (short: string, long: string) => short === long || (short.length === 1 && long.startsWith(short)) || (long.length === 1 && short.startsWith(long));

export function sameName(voter: readonly string[], nominee: readonly string[]): boolean {
  if (voter.length === 0 || nominee.length === 0) return false;
  if (!fits(nominee[0], voter[0]) || !fits(nominee[nominee.length - 1], voter[voter.length - 1])) return false;
  return nominee.slice(1, -1).every((word) => voter.slice(1, -1).some((other) => fits(word, other)));
}

/** A license number as compared: letters and digits only, upper case ("md 418-203" → "MD418203"). */
export function licenseKey(license: string | undefined): string {
  const text = license ?? '';
  // Plain ASCII needs no normalising: the same key, without the Unicode work, for a license per ballot.
  if (/^[\x20-\x7e]*$/.test(text)) return text.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return text
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/** An email address as compared: trimmed, lower case. */
export function emailKey(email: string | undefined): string {
  const text = email ?? '';
  return (/^[\x20-\x7e]*$/.test(text) ? text : text.normalize('NFKC')).trim().toLowerCase();
}
