import { apiUrl } from '../survey/api-url.ts';
import type { NomineeResults } from '../survey/nominee-search.ts';
import { localSearchClient } from './local-client.ts';
import type { SearchSettings } from './settings.ts';

/** One query as InstantSearch hands it to a search client. */
export interface SearchRequest {
  indexName: string;
  /** `optionalFilters` carries a slot's sub-category (`specialty:{sub-category}`) as a ranking hint. */
  params: { query: string; hitsPerPage?: number; page?: number; optionalFilters?: string[] };
}

/** InstantSearch's search-client interface, the seam between the UI and either backend. */
export interface NomineeSearchClient {
  search(requests: SearchRequest[]): Promise<NomineeResults>;
}

/** Options for tests: the Algolia hosts to ask instead of Algolia's own, and the local endpoint's origin. */
export interface ClientOptions {
  algoliaHosts?: Array<{ url: string; protocol: 'http' | 'https'; accept: 'read' | 'write' | 'readWrite' }>;
  apiBase?: string;
}

/**
 * The one place that decides which backend answers: Algolia's lite client when the survey
 * names an Algolia index, else the survey API's endpoint. Algolia's code is fetched only then.
 */
export async function createSearchClient(settings: SearchSettings, options: ClientOptions = {}): Promise<NomineeSearchClient> {
  if (settings.algolia) {
    const { liteClient } = await import('algoliasearch/lite');
    const client = liteClient(settings.algolia.appId, settings.algolia.apiKey, options.algoliaHosts ? { hosts: options.algoliaHosts } : undefined);
    return { search: (requests) => client.search(requests) as Promise<NomineeResults> };
  }
  const path = `/api/search/${encodeURIComponent(settings.projectId)}`;
  return localSearchClient(options.apiBase ? `${options.apiBase.replace(/\/$/, '')}${path}` : apiUrl(path));
}
