import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';
import { RECEIPT_ALPHABET, RECEIPT_LENGTH } from '../survey/published/receipt-code.ts';

/** Random bytes in a personal link's secret: 128 bits, beyond guessing and above any minimum a build may set. */
const SECRET_BYTES = 16;

/** A new personal link secret: 128 random bits in base64url, 22 characters safe in a path and a query. */
export function newSecret(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}

/** A new receipt code: random letters of the receipt alphabet, derived from nothing the ballot holds. */
export function newReceiptCode(): string {
  let code = '';
  for (let i = 0; i < RECEIPT_LENGTH; i++) code += RECEIPT_ALPHABET[randomInt(RECEIPT_ALPHABET.length)];
  return code;
}

/** The stored stand-in for a secret where the secret itself must not be kept: its SHA-256, in hex. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** A keyed hash (HMAC-SHA-256, base64url) of a compared value: equal values give equal keys, and without the key no value can be tried. */
export function pseudonym(key: Buffer, kind: string, value: string): string {
  return createHmac('sha256', key).update(`${kind}\u0000${value}`).digest('base64url');
}
