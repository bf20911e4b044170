import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchClient } from '../../src/search/search-client.ts';
import { searchSettings } from '../../src/search/settings.ts';
import { HITS_PER_PAGE } from '../../src/survey/nominee-search.ts';
import { configureSearch, $suggestions, typeQuery } from '../../src/stores/suggestions.ts';
import { PORTS, startRecorder } from '../support/recorder.ts';

/** Stands in for Algolia, which cannot be reached from here: records requests, answers as Algolia would. */
let algolia: Awaited<ReturnType<typeof startRecorder>>;
beforeAll(async () => {
  algolia = await startRecorder(PORTS.algoliaSearch, ({ body }) => ({
    body: {
      results: (body as { requests: Array<{ indexName: string; query: string }> }).requests.map(({ indexName, query }) => ({
        hits: [{ objectID: 'tdd-0001', id: 'tdd-0001', name: 'José Álvarez-Ruiz', specialty: 'Cardiology', _highlightResult: {} }],
        nbHits: 1,
        page: 0,
        nbPages: 1,
        hitsPerPage: HITS_PER_PAGE,
        query,
        params: '',
        index: indexName,
        processingTimeMS: 1,
        exhaustiveNbHits: true,
      })),
    },
  }));
});
afterAll(() => algolia.close());

const survey = { project_id: 'top-doctors-demo', algolia_app_id: 'APPID123', algolia_api_key: 'search-only-key', algolia_index: 'top_doctors_2027' };
const hosts = () => [{ url: algolia.host, protocol: 'http' as const, accept: 'readWrite' as const }];

describe('the Algolia backend', () => {
  it('is chosen when the survey names an Algolia index and its keys', () => {
    expect(searchSettings(survey)).toEqual({ projectId: 'top-doctors-demo', indexName: 'top_doctors_2027', algolia: { appId: 'APPID123', apiKey: 'search-only-key' } });
    expect(searchSettings({ project_id: 'p' })).toEqual({ projectId: 'p', indexName: 'p' });
  });

  it("sends algoliasearch's multi-query request: the index, the query and 12 hits a page, with the search-only key", async () => {
    algolia.requests.length = 0;
    configureSearch(searchSettings(survey), (settings) => createSearchClient(settings, { algoliaHosts: hosts() }));
    typeQuery('nominations[Heart and Lungs][Cardiology][1]', ' josé ');
    await expect.poll(() => $suggestions.get().status, { timeout: 5000 }).toBe('done');

    expect(algolia.requests).toHaveLength(1);
    const [request] = algolia.requests;
    expect(request.method).toBe('POST');
    expect(request.path).toMatch(/^\/1\/indexes\/\*\/queries\?/);
    expect(request.headers['x-algolia-application-id']).toBe('APPID123');
    expect(request.headers['x-algolia-api-key']).toBe('search-only-key');
    // The slot's sub-category travels as an optionalFilters hint on the specialty attribute (INDEX_SETTINGS makes it filterable).
    expect(request.body).toEqual({ requests: [{ indexName: 'top_doctors_2027', query: 'josé', hitsPerPage: 12, page: 0, optionalFilters: ['specialty:Cardiology'] }] });
    expect($suggestions.get()).toMatchObject({ status: 'done', nbHits: 1, hits: [{ id: 'tdd-0001', name: 'José Álvarez-Ruiz' }] });
  });

  it('reads hits through the same interface as the local backend', async () => {
    const client = await createSearchClient(searchSettings(survey), { algoliaHosts: hosts() });
    const { results } = await client.search([{ indexName: 'top_doctors_2027', params: { query: 'alvarez', hitsPerPage: 12, page: 0 } }]);
    expect(results[0].hits[0]).toMatchObject({ objectID: 'tdd-0001', id: 'tdd-0001', name: 'José Álvarez-Ruiz' });
  });
});
