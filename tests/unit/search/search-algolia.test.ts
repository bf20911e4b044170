import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchClient } from '../../../src/search/search-client.ts';
import { searchSettings, HITS_PER_PAGE } from '../../../src/survey/nominees/nominee-search.ts';
import { configureSearch, $suggestions, reportPick, typeQuery } from '../../../src/search/suggestions.ts';
import { startRecorder } from '../../support/recorder.ts';

/** Stands in for Algolia, which cannot be reached from here: records requests, answers as Algolia would. */
let algolia: Awaited<ReturnType<typeof startRecorder>>;
beforeAll(async () => {
  algolia = await startRecorder(({ path, body }) => ({
    body: path.startsWith('/1/events')
      ? { status: 200, message: 'OK' }
      : {
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
            queryID: 'q-0001',
          })),
        },
  }));
});
afterAll(() => algolia.close());

const survey = { project_id: 'top-doctors-demo', algolia_app_id: 'APPID123', algolia_api_key: 'search-only-key', algolia_index: 'top_doctors_2027' };
let searchToken = '';
const ANONYMOUS = /^anonymous-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const hosts = () => [{ url: algolia.host, protocol: 'http' as const, accept: 'readWrite' as const }];

describe('the Algolia backend', () => {
  it('is chosen when the survey names an Algolia index and its keys', () => {
    expect(searchSettings(survey)).toEqual({
      projectId: 'top-doctors-demo',
      indexName: 'top_doctors_2027',
      algolia: { appId: 'APPID123', apiKey: 'search-only-key' },
    });
    expect(searchSettings({ project_id: 'p' })).toEqual({ projectId: 'p', indexName: 'p' });
  });

  it("sends algoliasearch's multi-query request: the index, the query and 12 hits a page, with the search-only key", async () => {
    algolia.requests.length = 0;
    configureSearch(searchSettings(survey), (settings) => createSearchClient(settings, { algoliaHosts: hosts(), insightsHost: `http://${algolia.host}` }));
    typeQuery('nominations[Heart and Lungs][Cardiology][1]', ' josé ');
    await expect.poll(() => $suggestions.get().status, { timeout: 5000 }).toBe('done');

    expect(algolia.requests).toHaveLength(1);
    const [request] = algolia.requests;
    expect(request.method).toBe('POST');
    expect(request.path).toMatch(/^\/1\/indexes\/\*\/queries\?/);
    expect(request.headers['x-algolia-application-id']).toBe('APPID123');
    expect(request.headers['x-algolia-api-key']).toBe('search-only-key');
    // The slot's sub-category travels as an optionalFilters hint on the specialty attribute (INDEX_SETTINGS makes it filterable).
    // clickAnalytics asks Algolia for the queryID that Insights events carry; the user token is an anonymous one made for the page.
    expect(request.body).toEqual({
      requests: [
        {
          indexName: 'top_doctors_2027',
          query: 'josé',
          hitsPerPage: 12,
          page: 0,
          optionalFilters: ['specialty:Cardiology'],
          clickAnalytics: true,
          userToken: expect.stringMatching(ANONYMOUS),
        },
      ],
    });
    expect($suggestions.get()).toMatchObject({ status: 'done', nbHits: 1, hits: [{ id: 'tdd-0001', name: 'José Álvarez-Ruiz' }] });
    searchToken = (request.body as { requests: Array<{ userToken: string }> }).requests[0].userToken;
  });

  it('reports a pick to Algolia Insights as one click and one conversion, with the queryID and position of the hit', async () => {
    const [hit] = $suggestions.get().hits;
    algolia.requests.length = 0;
    reportPick(hit);
    await expect.poll(() => algolia.requests.length, { timeout: 5000 }).toBe(2);
    expect(algolia.requests.every((r) => r.method === 'POST' && r.path.startsWith('/1/events?'))).toBe(true);
    const params = new URLSearchParams(algolia.requests[0].path.split('?')[1]);
    expect(params.get('X-Algolia-Application-Id')).toBe('APPID123');
    expect(params.get('X-Algolia-API-Key')).toBe('search-only-key');
    const events = algolia.requests.flatMap((r) => (r.body as { events: Array<Record<string, unknown>> }).events);
    const userToken = expect.stringMatching(ANONYMOUS);
    expect(events).toEqual([
      {
        eventType: 'click',
        eventName: 'Nominee Picked',
        index: 'top_doctors_2027',
        queryID: 'q-0001',
        objectIDs: ['tdd-0001'],
        positions: [1],
        userToken,
        algoliaSource: ['instantsearch'],
      },
      {
        eventType: 'conversion',
        eventName: 'Nominee Picked',
        index: 'top_doctors_2027',
        queryID: 'q-0001',
        objectIDs: ['tdd-0001'],
        userToken,
        algoliaSource: ['instantsearch'],
      },
    ]);
    // The search and the events name the same anonymous voter, and nothing else about them.
    expect(events.map((event) => event.userToken)).toEqual([searchToken, searchToken]);
  });

  it('reads hits through the same interface as the local backend', async () => {
    const client = await createSearchClient(searchSettings(survey), { algoliaHosts: hosts() });
    const { results } = await client.search([{ indexName: 'top_doctors_2027', params: { query: 'alvarez', hitsPerPage: 12, page: 0 } }]);
    expect(results[0].hits[0]).toMatchObject({ objectID: 'tdd-0001', id: 'tdd-0001', name: 'José Álvarez-Ruiz' });
  });
});
