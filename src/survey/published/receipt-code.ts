// Receipt codes as voters read and type them: shared by the API, the check form and the tools.
import { standingWords, type BallotStanding } from './published-results.ts';
import { intlLocale, m } from '../../i18n/messages.ts';

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
  if (answer === 'bad-code') return m.receipt_bad_code();
  if (answer === 'too-many') return m.receipt_too_many();
  if (answer === 'failed') return m.receipt_failed();
  const shown = formatReceipt(normalizeReceipt(code) ?? code);
  if (!answer.received || !answer.received_at) return m.receipt_not_received({ code: shown });
  const when = (at: string) => new Date(at).toLocaleString(intlLocale('en-GB'), { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
  const received = m.receipt_received({ code: shown, when: when(answer.received_at) });
  if (answer.replaced_at) return m.receipt_replaced({ received, when: when(answer.replaced_at) });
  if (!answer.status) return `${received}.`;
  const reasons = answer.status === 'replaced' || !answer.reasons?.length ? '' : ` ${m.receipt_not_counted({ reasons: answer.reasons.join('; ') })}`;
  return `${received}. ${standingWords()[answer.status]}${reasons}`;
}
