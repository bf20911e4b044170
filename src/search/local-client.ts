import type { NomineeResults } from '../survey/nominee-search.ts';
import type { NomineeSearchClient, SearchRequest } from './search-client.ts';

/**
 * A search client with InstantSearch's interface that asks the survey API's own endpoint,
 * which answers in Algolia's response shape from the survey's nominee file.
 */
export function localSearchClient(url: string, fetcher: typeof fetch = fetch): NomineeSearchClient {
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
