import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_ROUTES, CONSOLE_PAGE_SAMPLES, matchRoute, refusedMethod, sampleAddress } from '../../../src/server/routes.ts';
import { requestedRoute } from '../../../src/server/route-handlers.ts';
import { fixedApiRoutes } from '../../../src/integrations/api-routes.ts';

describe('the route table', () => {
  it.each([
    ['/api/survey', '/api/survey', {}],
    ['/api/survey/', '/api/survey', {}],
    ['/api/survey/link/top-doctors-demo', '/api/survey/link/:projectId', { projectId: 'top-doctors-demo' }],
    ['/api/survey/link/a b/', '/api/survey/link/:projectId', { projectId: 'a b' }],
    ['/api/survey/receipt/p/7K3M-Q', '/api/survey/receipt/:projectId/:code', { projectId: 'p', code: '7K3M-Q' }],
    ['/api/survey/receipt/p/', '/api/survey/receipt/:projectId', { projectId: 'p' }],
    ['/api/search/p', '/api/search/:projectId', { projectId: 'p' }],
    ['/api/health', '/api/health', {}],
  ])('%s is %s', (address, path, params) => {
    expect(matchRoute(address)).toEqual({ route: expect.objectContaining({ path }), params });
  });

  it.each([
    '/api',
    '/api/',
    '/api/nope',
    '/api/survey/x',
    '/api/survey/link/',
    '/api/survey/link//',
    '/api/search/a/b',
    '/api/survey/receipt/p/c/d',
    '/api/HEALTH',
    '/api/health.json',
  ])('no route answers %s', (address) => {
    expect(matchRoute(address)).toBeUndefined();
  });

  it('matches each route on its own: no address is answered by two', () => {
    for (const route of API_ROUTES) {
      const address = sampleAddress(route);
      expect(API_ROUTES.filter((other) => matchRoute(address)?.route === other)).toEqual([route]);
    }
  });
});

describe('refusedMethod', () => {
  const refused = (address: string, method: string) => {
    const match = matchRoute(address);
    return match && refusedMethod(match.route, method);
  };
  it.each([
    ['/api/survey', 'POST', undefined],
    ['/api/survey', 'GET', ['POST', 'OPTIONS']],
    ['/api/survey/link/x', 'GET', undefined],
    ['/api/survey/link/x', 'head', undefined],
    ['/api/survey/link/x', 'PUT', ['GET', 'HEAD', 'OPTIONS']],
    ['/api/search/x', 'OPTIONS', undefined],
    ['/api/survey/receipt/x/CODE', 'POST', ['GET', 'HEAD', 'OPTIONS']],
    ['/api/survey/receipt/x', 'DELETE', ['GET', 'HEAD', 'OPTIONS']],
    ['/api/nowhere', 'DELETE', undefined],
  ])('%s %s', (path, method, allowed) => {
    expect(refused(path, method)).toEqual(allowed);
  });
});

/**
 * docs/api.md's endpoint table, one `METHODS path` line a row: the methods of its Method
 * column, its Address without the query, `{name}` written `:name` as the route table does.
 */
function documentedRoutes(markdown: string): string[] {
  // The first table after the heading, its header row and rule left out.
  const table = /^### Endpoints\n[^|]*((?:^\|.*\n)+)/m.exec(markdown)?.[1] ?? '';
  const rows = table.trim().split('\n').slice(2);
  return rows.map((row) => {
    const [methods, address] = row.split('|').slice(1, 3);
    const codes = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((code) => code[1]);
    const path = (codes(address)[0] ?? '').replace(/\?.*$/, '').replace(/\{(\w+)\}/g, ':$1');
    return `${codes(methods).join(', ')} ${path}`;
  });
}

describe("docs/api.md's endpoint table", () => {
  it('lists every route of the table with its methods, and no other', () => {
    const docs = documentedRoutes(readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8'));
    const table = API_ROUTES.map((route) => `${route.methods.join(', ')} ${route.path}`);
    expect(docs.toSorted()).toEqual(table.toSorted());
  });
});

describe('requestedRoute', () => {
  it("finds a fixed address by the pattern Astro matched (a route of its own), any other by the endpoint's rest parameter", () => {
    expect(requestedRoute({ routePattern: '/api/survey', params: {} })).toEqual({ route: expect.objectContaining({ path: '/api/survey' }), params: {} });
    expect(requestedRoute({ routePattern: '/api/[...route]', params: { route: 'search/p' } })).toEqual({
      route: expect.objectContaining({ path: '/api/search/:projectId' }),
      params: { projectId: 'p' },
    });
    expect(requestedRoute({ routePattern: '/api/[...route]', params: { route: undefined } })).toBeUndefined();
    expect(requestedRoute({ routePattern: '/api/[...route]', params: { route: 'HEALTH' } })).toBeUndefined();
  });

  it('makes every fixed address of the table, and only those, a route of its own', () => {
    const patterns: string[] = [];
    const setup = fixedApiRoutes(API_ROUTES).hooks['astro:config:setup'] as (options: {
      injectRoute(route: { pattern: string; entrypoint: string }): void;
    }) => void;
    setup({ injectRoute: ({ pattern, entrypoint }) => patterns.push(`${pattern} ${entrypoint}`) });
    const fixed = [
      '/api/survey',
      '/api/health',
      ...API_ROUTES.map((route) => route.path).filter((path) => path.startsWith('/api/console/') && !path.includes(':')),
    ];
    expect(fixed).toHaveLength(14);
    expect(patterns).toEqual(fixed.map((path) => `${path} ./src/pages/api/[...route].ts`));
    for (const pattern of patterns) expect(requestedRoute({ routePattern: pattern.split(' ')[0], params: {} })).toBeDefined();
  });
});

describe("the console's pages that bin/serve.mjs loads as it starts", () => {
  /** Each page file under src/pages/console/ as the addresses it answers (`[slug]` one segment, `[...rest]` any), and how general it is, as Astro ranks routes. */
  const pages = readdirSync(new URL('../../../src/pages/console/', import.meta.url), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.astro'))
    .map((file) => {
      const route = `/console/${file.replace(/\.astro$/, '').replace(/(^|\/)index$/, '')}`;
      // Placeholders for the parameters first, so that escaping the rest leaves them alone.
      const pattern = route
        .replace(/\[\.\.\.\w+\]/g, 'ANYPARTS')
        .replace(/\[\w+\]/g, 'ONEPART')
        .replace(/[.*+?^${}()|\\]/g, '\\$&')
        .replace(/ANYPARTS/g, '.+')
        .replace(/ONEPART/g, '[^/]+');
      const generality = (route.match(/\[\.\.\./g)?.length ?? 0) * 100 + (route.match(/\[/g)?.length ?? 0);
      return { file, pattern: new RegExp(`^${pattern}/?$`), generality };
    });

  it('has an address for every page, answered by that page', () => {
    expect(pages.length).toBeGreaterThanOrEqual(7);
    const answering = CONSOLE_PAGE_SAMPLES.map(
      (sample) => pages.filter((page) => page.pattern.test(sample)).sort((a, b) => a.generality - b.generality)[0]?.file,
    );
    expect(new Set(answering)).toEqual(new Set(pages.map((page) => page.file)));
  });
});
