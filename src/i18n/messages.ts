import { baseLocale, getLocale, isLocale, overwriteGetLocale, type Locale } from './paraglide/runtime.js';

/**
 * The catalogue's messages (`m.ballot_submit()`), each in the language of what is being made:
 * the page the build renders (`renderIn`), the request the API answers (`answerIn`), or in the
 * browser the page's own `<html lang>`. Import the messages from here, never from ./paraglide/
 * directly, so that the language is chosen before any message is called.
 */

export { m } from './paraglide/messages.js';
export { baseLocale, getLocale, type Locale };

let rendering: Locale | undefined;
let answering: (() => Locale | undefined) | undefined;

overwriteGetLocale(() => {
  if (answering) return answering() ?? rendering ?? baseLocale;
  if (rendering) return rendering;
  const lang = typeof document === 'undefined' ? undefined : document.documentElement.lang;
  return lang && isLocale(lang) ? lang : baseLocale;
});

/** The build renders the pages that follow in `locale` (Astro renders one page at a time). */
export function renderIn(locale: Locale): void {
  rendering = locale;
}

/** The server answers each request in the language `current` gives (its request's), else the default. */
export function answerIn(current: () => Locale | undefined): void {
  answering = current;
}

/** The language a page's `lang` or a request's `lang` names, when the product ships it; else the default. */
export function localeOf(lang: string | null | undefined): Locale {
  return lang && isLocale(lang) ? lang : baseLocale;
}

/**
 * The locale `Intl` formats the current language's dates, numbers and lists with: for English the
 * tag the product's English texts were written with (`en-GB` dates, `en-US` numbers), else the language.
 */
export function intlLocale(english: string): string {
  const locale = getLocale();
  return locale === baseLocale ? english : locale;
}
