import InstantSearch from 'instantsearch.js/es/lib/InstantSearch.js';
import connectConfigure from 'instantsearch.js/es/connectors/configure/connectConfigure.js';
import connectHits from 'instantsearch.js/es/connectors/hits/connectHits.js';
import connectSearchBox from 'instantsearch.js/es/connectors/search-box/connectSearchBox.js';
import type { InsightsClient, SearchClient } from 'instantsearch.js';
import type { SendEventForHits } from 'instantsearch.js/es/lib/utils/createSendEventForHits.js';
import { HITS_PER_PAGE, type NomineeHit, type NomineeResult, type NomineeResults, type SearchSettings } from '../survey/nominees/nominee-search.ts';
import { createSearchClient, type NomineeSearchClient, type SearchRequest } from './search-client.ts';

/** What one slot asks: the typed text, and the slot's ranking hint. */
interface NomineeQuery {
  query: string;
  optionalFilters?: string[];
}

/** A hit as InstantSearch's hits connector hands it on: with its place in the list and, on Algolia, the queryID Insights needs. */
type SearchedHit = NomineeHit & { __position?: number; __queryID?: string };

/** The page's nominee search: one InstantSearch instance that every nomination slot shares. */
export interface NomineeSearch {
  /** Searches the slot's query with its ranking hint; resolves with that query's answer, rejects if a newer one replaced it first. */
  ask(query: NomineeQuery): Promise<NomineeResult>;
  /** Tells Algolia Insights that the voter picked `hit` (a click and a conversion); nothing with the local engine. */
  picked(hit: SearchedHit): void;
}

/** The event name picks are reported under in Algolia's Insights dashboard. */
const PICK_EVENT = 'Nominee Picked';

/** The Insights methods InstantSearch may call that the nominee search lets through: no view events, no usage telemetry. */
const INSIGHTS_METHODS = new Set([
  'init',
  'getUserToken',
  'setUserToken',
  'onUserTokenChange',
  'addAlgoliaAgent',
  'clickedObjectIDsAfterSearch',
  'convertedObjectIDsAfterSearch',
]);

/** An answer with no hits, for the empty query InstantSearch sends when it starts: no backend is asked for it. */
function noHits(indexName: string): NomineeResult {
  return {
    hits: [],
    nbHits: 0,
    page: 0,
    nbPages: 0,
    hitsPerPage: HITS_PER_PAGE,
    query: '',
    params: '',
    index: indexName,
    processingTimeMS: 0,
    exhaustiveNbHits: true,
  };
}

/**
 * The backend as InstantSearch sees it: each request cut to the parameters the backends take
 * (InstantSearch adds facets, tagFilters and highlight tags that neither uses), and an empty
 * query answered here, as before, without asking anyone.
 */
function searchClientFor(backend: NomineeSearchClient): SearchClient {
  const search = async (requests: SearchRequest[]): Promise<NomineeResults> => {
    const answers = requests.every((request) => !request.params?.query)
      ? { results: requests.map((request) => noHits(request.indexName)) }
      : await backend.search(
          requests.map(({ indexName, params }) => {
            const { query, hitsPerPage = HITS_PER_PAGE, page = 0, optionalFilters, clickAnalytics, userToken } = params;
            return {
              indexName,
              params: { query, hitsPerPage, page, ...(optionalFilters ? { optionalFilters } : {}), ...(clickAnalytics ? { clickAnalytics, userToken } : {}) },
            };
          }),
        );
    answers.results.forEach((result, i) => askedFor.set(result, keyOf(requests[i]?.params?.query, requests[i]?.params?.optionalFilters)));
    return answers;
  };
  return { search } as unknown as SearchClient;
}

/** The search-insights client as InstantSearch's Insights middleware takes it, passing on only the methods the search needs. */
function onlyPicks(insights: InsightsClient): InsightsClient {
  const client = (method: string, ...args: unknown[]) =>
    INSIGHTS_METHODS.has(method) ? (insights as (...all: unknown[]) => unknown)(method, ...args) : undefined;
  return Object.assign(client, { version: insights.version }) as unknown as InsightsClient;
}

/** One pending `ask`: resolved by the first answer to its query and hint. */
interface Waiter {
  key: string;
  resolve(result: NomineeResult): void;
  reject(error: unknown): void;
}

const keyOf = (query: string | undefined, optionalFilters: unknown) => JSON.stringify([query ?? '', optionalFilters ?? []]);

/** The query and hint each answer was asked for, by the answer the backend gave (InstantSearch shows results with its newest state). */
const askedFor = new WeakMap<object, string>();

/**
 * Starts the page's InstantSearch instance on headless connectors: the configure connector holds
 * the slot's hits per page and ranking hint, the search box connector its query, and the hits
 * connector hands each answer (its hits numbered, with their queryID on Algolia) to whoever asked.
 * With an `insights` client (Algolia only), the Insights middleware sends the click and
 * conversion events of picks, under an anonymous token made for the page and kept in no cookie.
 */
function startNomineeSearch(indexName: string, backend: NomineeSearchClient, insights?: InsightsClient): NomineeSearch {
  const reportPicks = Boolean(insights && backend.insights);
  const search = new InstantSearch({
    indexName,
    searchClient: searchClientFor(backend),
    insights: insights && backend.insights ? { insightsClient: onlyPicks(insights), insightsInitParams: { ...backend.insights, useCookie: false } } : false,
    future: { preserveSharedStateOnUnmount: true },
  });
  let sendEvent: SendEventForHits | undefined;
  const waiters: Waiter[] = [];

  search.on('error', (error: unknown) => waiters.splice(0).forEach((waiter) => waiter.reject(error)));
  search.addWidgets([
    connectConfigure(() => undefined)({ searchParameters: { hitsPerPage: HITS_PER_PAGE } }),
    connectSearchBox(() => undefined)({}),
    connectHits(({ items, results, sendEvent: send }) => {
      sendEvent = send;
      if (!results) return;
      // An answer settles the asks of its query and hint, and any earlier ask a newer one replaced.
      const key = askedFor.get(results._rawResults[0]);
      const last = waiters.findLastIndex((waiter) => waiter.key === key);
      if (last < 0) return;
      const answer: NomineeResult = {
        ...noHits(indexName),
        hits: items as unknown as SearchedHit[],
        nbHits: results.nbHits,
        page: results.page,
        nbPages: results.nbPages,
        query: results.query,
      };
      for (const waiter of waiters.splice(0, last + 1)) {
        if (waiter.key === key) waiter.resolve(answer);
        else waiter.reject(new Error('a newer search replaced this one'));
      }
    })({ escapeHTML: false }),
  ]);
  search.start();

  return {
    ask({ query, optionalFilters }) {
      const answered = new Promise<NomineeResult>((resolve, reject) => waiters.push({ key: keyOf(query, optionalFilters), resolve, reject }));
      // The search box's query and the configure widget's hint, set together: one search goes, on the next tick.
      search.setUiState({ [indexName]: { query, configure: optionalFilters ? { optionalFilters } : {} } });
      return answered;
    },
    picked(hit) {
      if (!reportPicks || !sendEvent || !hit.__queryID) return;
      sendEvent('click', hit as never, PICK_EVENT);
      sendEvent('conversion', hit as never, PICK_EVENT);
    },
  };
}

/**
 * The page's one nominee search, loaded when a voter first focuses a nomination input: an
 * InstantSearch instance over `client` (by default the backend the survey names), with
 * Algolia Insights when that backend is Algolia.
 */
export async function createNomineeSearch(settings: SearchSettings, client?: NomineeSearchClient): Promise<NomineeSearch> {
  const backend = client ?? (await createSearchClient(settings));
  const insights = backend.insights ? (await import('search-insights')).default : undefined;
  return startNomineeSearch(settings.indexName, backend, insights);
}
