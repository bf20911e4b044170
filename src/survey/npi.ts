/**
 * True when `value` is a well-formed US National Provider Identifier: 10 digits whose last is
 * the Luhn check digit of the first nine behind the prefix 80840 (CMS, "NPI Check Digit").
 */
export function isNpi(value: string): boolean {
  // Luhn over the 15 digits "80840" + NPI: the prefix adds 24, and every other NPI digit from the first is doubled.
  return /^\d{10}$/.test(value) && [...value].reduce((sum, c, i) => sum + (i % 2 ? +c : 2 * +c > 9 ? 2 * +c - 9 : 2 * +c), 24) % 10 === 0;
}
