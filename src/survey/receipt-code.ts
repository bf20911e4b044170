// Receipt codes as voters read and type them: shared by the API, the check form and the tools.

/** The letters of a receipt code: Crockford's base 32, no I, L, O or U to misread. */
export const RECEIPT_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** How many letters a receipt code has: 12 letters of 32 are 60 random bits. */
export const RECEIPT_LENGTH = 12;

/**
 * A code as typed, put in its stored form: case, spaces and dashes aside, and the letters a
 * reader confuses read as the digits they look like (O as 0, I and L as 1). Undefined when it
 * cannot be a receipt code.
 */
export function normalizeReceipt(typed: string): string | undefined {
  const code = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (code.length !== RECEIPT_LENGTH) return undefined;
  return [...code].every((letter) => RECEIPT_ALPHABET.includes(letter)) ? code : undefined;
}

/** A stored code as shown to a voter, in groups of four: `7K3M-Q9TD-2XHB`. */
export function formatReceipt(code: string): string {
  return code.match(/.{1,4}/g)?.join('-') ?? code;
}
