import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import instantsearch from 'instantsearch.js/es/index.js';
import { connectHits, connectSearchBox } from 'instantsearch.js/es/connectors/index.js';
import type { SearchClient } from 'instantsearch.js';
import { ALL } from '../../../src/pages/api/[...route].ts';
import { createSearchClient, type NomineeSearchClient } from '../../../src/search/search-client.ts';
import { searchSettings } from '../../../src/survey/nominees/nominee-search.ts';

/** The search endpoint behind a real HTTP server, as the built site serves it. */
let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const url = new URL(req.url ?? '/', base);
    // The rest parameter as Astro gives it: the address after /api/, decoded.
    const route = decodeURI(url.pathname.slice('/api/'.length));
    const request = new Request(url, { method: req.method, headers: req.headers as Record<string, string>, body: req.method === 'POST' ? body : undefined });
    const response = await ALL({ params: { route }, request, url } as never);
    res.writeHead(response.status, Object.fromEntries(response.headers)).end(await response.text());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const demo = () => createSearchClient(searchSettings({ project_id: 'top-doctors-demo' }), { apiBase: base });

describe('the local search backend, over HTTP', () => {
  it('answers the search client in Algolia shape: 12 hits with objectID, id, name and details', async () => {
    const client = await demo();
    const { results } = await client.search([{ indexName: 'top-doctors-demo', params: { query: 'maria', hitsPerPage: 12, page: 0 } }]);
    expect(results).toHaveLength(1);
    const [result] = results;
    expect(result).toMatchObject({ page: 0, hitsPerPage: 12, query: 'maria', index: 'top-doctors-demo', exhaustiveNbHits: true });
    expect(result.hits).toHaveLength(12);
    expect(result.nbHits).toBeGreaterThan(12);
    expect(result.nbPages).toBe(Math.ceil(result.nbHits / 12));
    for (const hit of result.hits)
      expect(hit).toEqual({
        objectID: hit.id,
        id: expect.stringMatching(/^tdd-\d+$/),
        name: expect.any(String),
        specialty: expect.any(String),
        city: expect.any(String),
        practice: expect.any(String),
      });
  });

  it('ranks the slot’s sub-category first when the request carries it as optionalFilters, flat or under params', async () => {
    const client = await demo();
    const specialties = async (request: object) => (await client.search([{ indexName: 'i', ...request } as never])).results[0].hits.map((h) => h.specialty);
    const plain = await specialties({ params: { query: 'mar' } });
    expect(new Set(plain).size).toBeGreaterThan(1);
    expect(await specialties({ params: { query: 'mar', optionalFilters: ['specialty:Family Medicine'] } })).toEqual(Array(12).fill('Family Medicine'));
    expect(await specialties({ query: 'mar', optionalFilters: 'specialty:Pediatrics' })).toEqual(Array(12).fill('Pediatrics'));
  });

  it('is accent insensitive and typo tolerant', async () => {
    const client = await demo();
    const names = async (query: string) => (await client.search([{ indexName: 'i', params: { query } }])).results[0].hits.map((h) => h.name);
    expect(await names('jose alvarez')).toContain('José Álvarez-Ruiz');
    expect(await names('lukasz kowalczik')).toContain('Łukasz Kowalczyk');
  });

  it('answers several queries at once, flat or under params, in order', async () => {
    const response = await fetch(`${base}/api/search/members-choice-2027`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        requests: [
          { indexName: 'a', query: 'zzzz' },
          { indexName: 'b', params: { query: '', hitsPerPage: 5, page: 1 } },
        ],
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const { results } = await response.json();
    expect(results.map((r: { index: string; nbHits: number; page: number; hits: unknown[] }) => [r.index, r.nbHits, r.page, r.hits.length])).toEqual([
      ['a', 0, 0, 0],
      ['b', 40, 1, 5],
    ]);
  });

  it.each([
    ['an unknown survey', '/api/search/nope', '{"requests":[{"query":"a"}]}', 404, 'unknown_survey'],
    ['a body that is not JSON', '/api/search/top-doctors-demo', 'query=a', 400, 'bad_request'],
    ['more than 12 hits a page', '/api/search/top-doctors-demo', '{"requests":[{"query":"a","hitsPerPage":100}]}', 400, 'bad_request'],
    ['no requests', '/api/search/top-doctors-demo', '{"requests":[]}', 400, 'bad_request'],
  ])('refuses %s', async (_, path, body, status, error) => {
    const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    expect(response.status).toBe(status);
    expect((await response.json()).error).toBe(error);
  });

  it("grants no origin of its own: CORS is the middleware's, the same for every route (tests/api/origins-and-limits.test.ts)", async () => {
    const response = await fetch(`${base}/api/search/top-doctors-demo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'https://elsewhere.example' },
      body: JSON.stringify({ requests: [{ indexName: 'i', params: { query: 'maria' } }] }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('serves InstantSearch itself through the same client interface', async () => {
    const client: NomineeSearchClient = await demo();
    const search = instantsearch({ indexName: 'top-doctors-demo', searchClient: client as unknown as SearchClient });
    let refine: (query: string) => void = () => undefined;
    const names = new Promise<string[]>((resolve) => {
      search.addWidgets([
        connectSearchBox((state) => (refine = state.refine))({}),
        connectHits(({ items, results }) => {
          if (results?.query === "siobhan o'brien") resolve(items.map((item) => String(item.name)));
        })({}),
      ]);
    });
    search.start();
    refine("siobhan o'brien");
    expect(await names).toContain("Siobhán O'Brien");
    search.dispose();
  });
});
