import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startApi, type Api } from './helpers.ts';

let api: Api;
let proxied: Api;
beforeAll(async () => {
  [api, proxied] = await Promise.all([startApi(), startApi({ TRUST_PROXY: '1' })]);
});
afterAll(() => Promise.all([api?.stop(), proxied?.stop()]));

describe('files of the build that are no page', () => {
  test.each(['/_headers', '/_redirects', '/%5Fheaders', '/_redirects/', '/404.html', '/404', '/404/', '/404.html.br', '/404.html.gz'])(
    '%s answers 404 with the not-found page',
    async (pathname) => {
      const answer = await api.get(pathname, { 'Accept-Encoding': 'br, gzip' });
      expect(answer.status).toBe(404);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(answer.body).toContain('<title>');
      expect(answer.body).not.toContain('Content-Security-Policy:');
      expect(answer.body).not.toContain('/index.html  /  301!');
    },
  );
});

describe('Strict-Transport-Security', () => {
  test('is not sent over plain HTTP, on a page, an image or the API', async () => {
    for (const pathname of ['/top-doctors-demo/', '/media/welcome-splash.svg', '/api/health']) {
      const answer = await api.get(pathname);
      expect(answer.status, pathname).toBe(200);
      expect(answer.headers.get('strict-transport-security'), pathname).toBeNull();
      expect(answer.headers.get('x-content-type-options'), pathname).toBe('nosniff');
    }
  });

  test('an X-Forwarded-Proto of https is not believed without TRUST_PROXY', async () => {
    const answer = await api.get('/top-doctors-demo/', { 'X-Forwarded-Proto': 'https' });
    expect(answer.headers.get('strict-transport-security')).toBeNull();
  });

  test('with TRUST_PROXY, is sent when our proxy says the request came over https, and only then', async () => {
    const https = await proxied.get('/top-doctors-demo/', { 'X-Forwarded-Proto': 'https' });
    expect(https.headers.get('strict-transport-security')).toBe('max-age=31536000');
    // The client's own claim sits left of what our proxy wrote: our proxy's word counts.
    const forged = await proxied.get('/top-doctors-demo/', { 'X-Forwarded-Proto': 'https, http' });
    expect(forged.headers.get('strict-transport-security')).toBeNull();
    expect((await proxied.get('/top-doctors-demo/')).headers.get('strict-transport-security')).toBeNull();
  });
});

describe('images', () => {
  test.each(['/media/welcome-splash.svg', '/media/metro-health-logo.svg', '/favicon.svg'])(
    '%s is served with a policy that runs and loads nothing, and without sniffing',
    async (pathname) => {
      const answer = await api.get(pathname);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('image/svg+xml');
      expect(answer.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    },
  );
});
