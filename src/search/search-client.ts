import { apiUrl } from '../survey/api/api-replies.ts';
import type { NomineeResults, SearchSettings } from '../survey/nominees/nominee-search.ts';

/** One query as InstantSearch hands it to a search client. */
export interface SearchRequest {
  indexName: string;
  /**
   * `optionalFilters` carries a slot's sub-category (`specialty:{sub-category}`) as a ranking hint;
   * `clickAnalytics` and `userToken` go to Algolia only, so that its answer has a queryID for Insights.
   */
  params: { query: string; hitsPerPage?: number; page?: number; optionalFilters?: string[]; clickAnalytics?: boolean; userToken?: string };
}

/** Where a search client's Insights events go: Algolia's credentials, and a host of ours in tests. */
interface InsightsSettings {
  appId: string;
  apiKey: string;
  /** Defaults to Algolia's https://insights.algolia.io. */
  host?: string;
}

/** InstantSearch's search-client interface, the seam between the UI and either backend. */
export interface NomineeSearchClient {
  search(requests: SearchRequest[]): Promise<NomineeResults>;
  /** Set when the backend is Algolia: picks are then reported to Algolia Insights (none with the local engine). */
  insights?: InsightsSettings;
}

/** Options for tests: the Algolia hosts to ask instead of Algolia's own, the Insights host, and the local endpoint's origin. */
export interface ClientOptions {
  algoliaHosts?: Array<{ url: string; protocol: 'http' | 'https'; accept: 'read' | 'write' | 'readWrite' }>;
  insightsHost?: string;
  apiBase?: string;
}

/**
 * A search client with InstantSearch's interface that asks the survey API's own endpoint,
 * which answers in Algolia's response shape from the survey's nominee file.
 */
function localSearchClient(url: string, fetcher: typeof fetch = fetch): NomineeSearchClient {
  return {
    async search(requests: SearchRequest[]) {
      const response = await fetcher(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ requests }),
        credentials: 'omit',
      });
      if (!response.ok) throw new Error(`nominee search answered ${response.status}`);
      return (await response.json()) as NomineeResults;
    },
  };
}

/**
 * The one place that decides which backend answers: Algolia's lite client when the survey
 * names an Algolia index, else the survey API's endpoint. Algolia's code is fetched only then.
 */
export async function createSearchClient(settings: SearchSettings, options: ClientOptions = {}): Promise<NomineeSearchClient> {
  if (settings.algolia) {
    const { appId, apiKey } = settings.algolia;
    const { liteClient } = await import('algoliasearch/lite');
    const client = liteClient(appId, apiKey, options.algoliaHosts ? { hosts: options.algoliaHosts } : undefined);
    return {
      search: (requests) => client.search(requests) as Promise<NomineeResults>,
      insights: { appId, apiKey, ...(options.insightsHost ? { host: options.insightsHost } : {}) },
    };
  }
  const path = `/api/search/${encodeURIComponent(settings.projectId)}`;
  return localSearchClient(options.apiBase ? `${options.apiBase.replace(/\/$/, '')}${path}` : apiUrl(path));
}
