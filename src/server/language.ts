import { AsyncLocalStorage } from 'node:async_hooks';
import { answerIn, localeOf, type Locale } from '../i18n/messages.ts';

/**
 * The language the survey API answers a request in: the one its page names in the query's `lang`
 * (src/survey/api/api-replies.ts adds it on every page in a further language), else the default.
 * Every message the request's code calls (src/i18n/messages.ts) comes in that language.
 */
const requests = new AsyncLocalStorage<Locale>();
answerIn(() => requests.getStore());

/** Runs `answer` with the messages in the language the request asks for. */
export function inRequestLanguage<T>(url: URL, answer: () => T): T {
  return requests.run(localeOf(url.searchParams.get('lang')), answer);
}

/** The language the current request is answered in. */
export function requestLanguage(): Locale {
  return localeOf(requests.getStore());
}
