// Receipt codes as voters read and type them: shared by the API, the check form and the tools.
import { STANDING_WORDS, type BallotStanding } from './published-results.ts';

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

/** What a receipt check found, in the voter's words: shared by the check page and the API's plain-HTML answer. */
export function receiptAnswerText(
  answer: { received: boolean; received_at?: string; replaced_at?: string; status?: BallotStanding; reasons?: string[] } | 'bad-code' | 'too-many' | 'failed',
  code: string,
): string {
  if (answer === 'bad-code') return 'That is not a receipt code. A receipt code has 12 letters and digits, such as 7K3M-Q9TD-2XHB.';
  if (answer === 'too-many') return 'Too many checks from this address. Please try again in a minute.';
  if (answer === 'failed') return 'The check could not be made just now. Please try again later.';
  const shown = formatReceipt(normalizeReceipt(code) ?? code);
  if (!answer.received || !answer.received_at) return `No ballot with the receipt ${shown} has been received. Check the code against your thank-you page.`;
  const when = (at: string) => new Date(at).toLocaleString('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
  const received = `Your ballot with the receipt ${shown} was received on ${when(answer.received_at)} UTC`;
  if (answer.replaced_at) return `${received}, and replaced by a later ballot on ${when(answer.replaced_at)} UTC.`;
  if (!answer.status) return `${received}.`;
  const reasons = answer.status === 'replaced' || !answer.reasons?.length ? '' : ` Not counted: ${answer.reasons.join('; ')}.`;
  return `${received}. ${STANDING_WORDS[answer.status]}${reasons}`;
}
