/**
 * The pseudo-locale `en-XA` (Android's name for it): every English text accented, about 30%
 * longer, between markers, `⟦Ŝûƀɱîţ ·····⟧`. A page built in it shows at a glance any word that
 * escaped the catalogue, as plain English outside the markers; a test can look for such words.
 * Placeholders (`{count}`) and HTML tags stay as they are, so that the messages keep their inputs
 * and the survey's HTML texts their markup.
 */

/** The pseudo-locale's tag. */
export const PSEUDO_LOCALE = 'en-XA';

/**
 * Whether the build adds `en-XA` to the shipped languages: `PSEUDO_LOCALE=1`, which the test build
 * sets (package.json's `test`). The catalogue's compile then makes its messages from en.json (never
 * written under src/i18n/messages/), and a survey offered in English and another language offers
 * it too (`withPseudoLocale`, src/survey/config/translations.ts). The build writes the variable's
 * value into the server and the commands it bundles (`PSEUDO_LOCALE_DEFINE`,
 * src/integrations/messages.ts): they offer what their pages and catalogue were built with,
 * whatever the environment they later run in.
 */
export const pseudoLocaleWanted = (): boolean => process.env.PSEUDO_LOCALE === '1';

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

/** One English text in `en-XA`: accented, padded by about a third of its letters, between markers (a survey's own texts too, `withPseudoLocale`). */
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
