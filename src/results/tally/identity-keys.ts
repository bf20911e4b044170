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
