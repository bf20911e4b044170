import http from 'node:http';
import { expect, test } from './fixtures.ts';

/** Sends a request with its target exactly as written: no client in between resolves `..` or decodes `%2e`. */
function rawGet(baseURL: string, target: string): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  const { hostname, port } = new URL(baseURL);
  return new Promise((resolve, reject) => {
    const request = http.request({ hostname, port, path: target, method: 'GET', headers: { 'Accept-Encoding': 'identity' } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, headers: response.headers }));
    });
    request.on('error', reject);
    request.end();
  });
}

test.describe('the static file server', () => {
  // dist/server/entry.mjs and the project's package.json sit beside or above dist/client.
  for (const target of [
    '/../server/entry.mjs',
    '/_astro/../../server/entry.mjs',
    '/%2e%2e/server/entry.mjs',
    '/%2E%2E/%2E%2E/package.json',
    '/..%2fserver%2fentry.mjs',
    '/top-doctors-demo/%2e%2e/%2e%2e/server/entry.mjs',
    '/top-doctors-demo/index.html%00.js',
    '/%00',
    '/..\\server\\entry.mjs',
    '/%5c..%5cserver%5centry.mjs',
    '/top-doctors-demo/%zz',
  ]) {
    test(`refuses ${target} with a 400 and never a file outside the built pages`, async ({ baseURL }) => {
      const response = await rawGet(baseURL!, target);
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body)).toMatchObject({ error: 'bad_request' });
      expect(response.body).not.toContain('import');
      // The hardening headers go out on a refusal too.
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    });
  }

  test('a file that is not there is a 404 page, not a listing', async ({ baseURL }) => {
    for (const target of ['/_astro/', '/_astro/nothing-here.js', '/server/entry.mjs']) {
      const response = await rawGet(baseURL!, target);
      expect(response.status, target).toBe(404);
      expect(response.body, target).toContain('Page not found');
    }
  });

  test('hashed assets are cached for good, pages are revalidated and answered 304 while unchanged', async ({ request }) => {
    const home = await request.get('/top-doctors-demo/', { headers: { 'Accept-Encoding': 'br' } });
    const script = /\/_astro\/[\w.-]+\.js/.exec(await home.text())?.[0];
    expect(script).toBeTruthy();
    const asset = await request.get(script!, { headers: { 'Accept-Encoding': 'identity' } });
    expect(asset.status()).toBe(200);
    expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers()['content-type']).toBe('text/javascript; charset=utf-8');
    // Never asked about again, it carries no validators: a few bytes less for each of the page's files.
    expect(asset.headers()).not.toHaveProperty('etag');
    expect(asset.headers()).not.toHaveProperty('last-modified');

    const etag = home.headers().etag;
    expect(etag).toBeTruthy();
    const again = await request.get('/top-doctors-demo/', { headers: { 'Accept-Encoding': 'br', 'If-None-Match': etag } });
    expect(again.status()).toBe(304);
    // Each encoding is its own copy, with its own tag.
    const gzipped = await request.get('/top-doctors-demo/', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gzipped.headers()['content-encoding']).toBe('gzip');
    expect(gzipped.headers().etag).not.toBe(etag);
    expect(gzipped.headers().vary).toContain('Accept-Encoding');
  });
});
