/**
 * True when `value` is a well-formed US National Provider Identifier: 10 digits whose last is
 * the Luhn check digit of the first nine behind the prefix 80840 (CMS, "NPI Check Digit").
 * Spaces and dashes a voter types between digits are allowed.
 */
export function isNpi(value: string): boolean {
  const digits = value.replace(/[\s-]/g, '');
  if (!/^\d{10}$/.test(digits)) return false;
  // Luhn over "80840" + the first nine digits: double every second digit from the right of that payload.
  const payload = `80840${digits.slice(0, 9)}`;
  let sum = 0;
  for (let i = 0; i < payload.length; i++) {
    let digit = Number(payload[payload.length - 1 - i]);
    if (i % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return (10 - (sum % 10)) % 10 === Number(digits[9]);
}
