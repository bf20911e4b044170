import { intlLocale, m } from '../../i18n/messages.ts';
// Verified voters (`verify: email` or `roster`): the words the page and the API share, the
// codes' rules, and the checks on what a voter types to be found.

/** The page's and the API's words for each step, in the page's or the request's language. */
export function verifyWords() {
  return {
    send: m.verify_send(),
    code: m.verify_code(),
    check: m.verify_check(),
    tooManyTries: m.verify_too_many(),
    wrongCode: m.verify_wrong(),
    expired: m.verify_expired(),
    alreadyFromAddress: m.thanks_already_address(),
    received: m.thanks_sent(),
    emailAsk: m.verify_email_ask(),
    rosterAsk: m.verify_roster_ask(),
  };
}

/** How long a mailed code is valid. */
export const CODE_LIFETIME_MS = 15 * 60_000;

/** Wrong codes an address may type before every code is refused until a new one is sent. */
export const MAX_WRONG_TRIES = 5;

/** Codes one address may be sent in the limit's window. */
export const CODES_PER_ADDRESS = 3;

/** The window of the codes' limits, per address and per client. */
export const CODE_WINDOW_MS = 10 * 60_000;

/** The sentence for a ballot replaced by a later one of the same voter, with the earlier one's time. */
export function replacedSentence(sentAt: string): string {
  return m.replaced_sentence({ when: whenSent(sentAt) });
}

/** A ballot's time as voters read it: `1 March 2027 at 09:30 UTC`. */
function whenSent(at: string): string {
  return m.when_utc({ when: new Date(at).toLocaleString(intlLocale('en-GB'), { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }) });
}

/** An address as it is compared: trimmed, lower case. */
export function addressKey(address: string): string {
  return address.normalize('NFKC').trim().toLowerCase();
}

/** True for something shaped like a mail address: one @, a dot in the domain, no spaces; at most 254 characters. */
export function isAddress(text: string): boolean {
  return text.length <= 254 && /^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$/.test(text);
}

/** An address shown without giving it away: the first letter of the name and of the domain, and the ending (`j•••@n•••.org`). */
export function maskAddress(address: string): string {
  const [name, domain = ''] = address.split('@');
  const dot = domain.lastIndexOf('.');
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const end = dot > 0 ? domain.slice(dot) : '';
  return `${name.slice(0, 1)}•••@${host.slice(0, 1)}•••${end}`;
}

/** A licence number as compared: letters and digits only, upper case, an NPI without its "NPI" prefix. */
export function licenceKey(licence: string): string {
  const key = licence
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
  return /^NPI\d{10}$/.test(key) ? key.slice(3) : key;
}

/**
 * True when ten digits carry a valid NPI check digit: the Luhn formula over the number
 * prefixed with 80840, as the US National Provider Identifier standard defines it.
 */
export function validNpi(digits: string): boolean {
  if (!/^\d{10}$/.test(digits)) return false;
  const all = `80840${digits}`;
  let sum = 0;
  for (let i = 0; i < all.length; i++) {
    let digit = Number(all[all.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
