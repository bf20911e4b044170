/**
 * The pseudo-locale `en-XA` (Android's name for it): every English text accented, about 30%
 * longer, between markers, `⟦Ŝûƀɱîţ ·····⟧`. A page built in it shows at a glance any word that
 * escaped the catalogue, as plain English outside the markers; a test can look for such words.
 * Placeholders (`{count}`) and HTML tags stay as they are, so that the messages keep their inputs
 * and the survey's HTML texts their markup.
 */

/** The marks a pseudo-localized text starts and ends with. */
const PSEUDO_OPEN = '⟦';
const PSEUDO_CLOSE = '⟧';

const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((letter, i) => [letter, [...'âƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ'][i]!]),
);

/** Accents the letters of a text outside its placeholders and tags. */
function accent(text: string): string {
  return text
    .split(/(\{[^}]*\}|<[^>]*>|&[a-z]+;)/)
    .map((part, i) => (i % 2 === 1 ? part : [...part].map((letter) => ACCENTED[letter] ?? letter).join('')))
    .join('');
}

/**
 * One English text in `en-XA`: accented, padded by about a third of its letters, between markers.
 * Exported for its unit test and for the survey's own texts in the pseudo-locale.
 * @internal
 */
export function pseudoText(text: string): string {
  if (!text.trim()) return text;
  const letters = text.replace(/\{[^}]*\}|<[^>]*>/g, '').replace(/\s/g, '').length;
  const padding = letters > 0 ? ` ${'·'.repeat(Math.max(1, Math.round(letters * 0.3)))}` : '';
  return `${PSEUDO_OPEN}${accent(text)}${padding}${PSEUDO_CLOSE}`;
}

/** A message of the catalogue: a pattern, or Paraglide's variants whose `match` holds the patterns. */
type Message = string | Array<{ declarations?: string[]; selectors?: string[]; match: Record<string, string> }>;

/** The whole English catalogue in `en-XA`: each pattern, plural variants included, pseudo-localized; keys and inputs unchanged. */
export function pseudoCatalogue(english: Record<string, Message>): Record<string, Message> {
  return Object.fromEntries(
    Object.entries(english)
      .filter(([key]) => key !== '$schema')
      .map(([key, message]) => [
        key,
        typeof message === 'string'
          ? pseudoText(message)
          : message.map((variant) => ({
              ...variant,
              match: Object.fromEntries(Object.entries(variant.match).map(([when, pattern]) => [when, pseudoText(pattern)])),
            })),
      ]),
  );
}
