import http from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_QUERY, demoBallot, oneInstant, startApi, type Api } from './helpers.ts';
import { multipart } from '../support/ballots.mjs';

const CDN = 'https://cdn.example.com';
const search = new URLSearchParams(DEMO_QUERY).toString();

/** Posts a demo ballot with exactly these headers (Host included), as a proxy or another site would. */
function rawPost(url: string, headers: Record<string, string>, n = 0): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const { body, contentType } = multipart(demoBallot(n) as Array<[string, string]>);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}/api/survey?${search}`,
      { method: 'POST', headers: { 'Content-Type': contentType, 'Content-Length': String(body.length), ...headers } },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('origins', () => {
  let api: Api;
  beforeAll(async () => {
    api = await startApi({ ALLOWED_ORIGINS: CDN });
  });
  afterAll(() => api?.stop());

  test('a post from another origin, or with no Origin, is refused', async () => {
    const foreign = await api.post(demoBallot(1), { headers: { Origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toBe('forbidden_origin');
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const none = await rawPost(api.url, {});
    expect(none.status).toBe(403);
    expect(foreign.body.message).toBe('Ballots are accepted only from the survey site itself.');
  });

  test('a search from another origin is refused in its own words', async () => {
    const search = await api.request('/api/search/top-doctors-demo', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'https://evil.example' },
      body: '{"requests":[{"query":"ana"}]}',
    });
    expect(search.status).toBe(403);
    expect(search.body).toMatchObject({ error: 'forbidden_origin', message: 'Searches are accepted only from the survey site itself.' });
    expect(search.body.problems).toEqual([{ path: 'Origin', message: 'https://evil.example is not allowed.' }]);
  });

  test('a post from the site itself is taken, its CORS headers naming the site', async () => {
    const own = await api.post(demoBallot(2));
    expect(own.status).toBe(201);
    expect(own.headers.get('access-control-allow-origin')).toBe(api.url);
    expect(own.headers.get('vary')).toContain('Origin');
  });

  test('a search says in its CORS headers what the origin check enforces: the allowed origins, named, never *', async () => {
    const search = (origin: string) =>
      api.request('/api/search/top-doctors-demo', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: origin },
        body: '{"requests":[{"query":"ana"}]}',
      });
    for (const origin of [CDN, api.url]) {
      const allowed = await search(origin);
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get('access-control-allow-origin')).toBe(origin);
      expect(allowed.headers.get('vary')).toContain('Origin');
    }
    const foreign = await search('https://evil.example');
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const lookup = await api.get('/api/survey/faces/top-doctors-demo', { Origin: 'https://evil.example' });
    expect(lookup.headers.get('access-control-allow-origin')).toBeNull();
  });

  test("a search preflight is granted to the allowed origins only, for the search's methods", async () => {
    const preflight = (origin: string) =>
      api.request('/api/search/top-doctors-demo', {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
      });
    const granted = await preflight(CDN);
    expect(granted.status).toBe(204);
    expect(granted.headers.get('access-control-allow-origin')).toBe(CDN);
    expect(granted.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(granted.headers.get('access-control-allow-headers')).toContain('Content-Type');
    const refused = await preflight('https://evil.example');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('a post from an ALLOWED_ORIGINS origin is taken, with CORS headers for exactly that origin', async () => {
    const cdn = await api.post(demoBallot(3), { headers: { Origin: CDN } });
    expect(cdn.status).toBe(201);
    expect(cdn.headers.get('access-control-allow-origin')).toBe(CDN);
    expect(cdn.headers.get('vary')).toContain('Origin');
    const lookup = await api.get('/api/survey/faces/top-doctors-demo', { Origin: CDN });
    expect(lookup.headers.get('access-control-allow-origin')).toBe(CDN);
  });

  test("a preflight from the site's own origin is granted, as for ALLOWED_ORIGINS", async () => {
    const own = await api.request('/api/survey', {
      method: 'OPTIONS',
      headers: { Origin: api.url, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'idempotency-key' },
    });
    expect(own.status).toBe(204);
    expect(own.headers.get('access-control-allow-origin')).toBe(api.url);
    expect(own.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(own.headers.get('access-control-allow-headers')).toContain('Idempotency-Key');
  });

  test('a preflight is granted to ALLOWED_ORIGINS, and refused to other origins', async () => {
    const preflight = (origin: string) =>
      api.request('/api/survey', {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'idempotency-key' },
      });
    const granted = await preflight(CDN);
    expect(granted.status).toBe(204);
    expect(granted.headers.get('access-control-allow-origin')).toBe(CDN);
    expect(granted.headers.get('access-control-allow-methods')).toContain('POST');
    expect(granted.headers.get('access-control-allow-headers')).toContain('Idempotency-Key');
    const refused = await preflight('https://evil.example');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('behind a TLS-terminating proxy, a post from the public https origin is taken (security.allowedDomains)', async () => {
    const port = new URL(api.url).port;
    const proxied = await rawPost(
      api.url,
      { Host: `127.0.0.1:${port}`, 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'peervote.test', Origin: 'https://peervote.test' },
      4,
    );
    expect(proxied.status).toBe(201);
    const forged = await rawPost(api.url, { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'evil.test', Origin: 'https://evil.test' }, 5);
    expect(forged.status).toBe(403);
    const unproxied = await rawPost(api.url, { Origin: 'https://peervote.test' }, 6);
    expect(unproxied.status).toBe(403);
  });
});

describe('rate limit', () => {
  test('past RATE_LIMIT_MAX posts in a window: 429 with Retry-After; X-Forwarded-For is ignored without TRUST_PROXY', async () => {
    const api = await startApi({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '60' });
    const at = oneInstant();
    try {
      const statuses = [];
      // Three browsers: one browser's third ballot in a minute would be a burst (below), not the limit.
      for (let i = 0; i < 3; i++)
        statuses.push((await api.post(demoBallot(i), { headers: { 'X-Forwarded-For': `10.0.0.${i}`, 'User-Agent': `Browser/${i}`, ...at } })).status);
      expect(statuses).toEqual([201, 201, 201]);
      const limited = await api.post(demoBallot(9), { headers: { 'X-Forwarded-For': '10.9.9.9', 'User-Agent': 'Browser/9', ...at } });
      expect(limited.status).toBe(429);
      expect(limited.body.error).toBe('rate_limited');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      // The header the server sets to the connection's address, sent by the client, makes it no other client.
      const spoofed = await api.post(demoBallot(11), { headers: { 'X-Peervote-Peer': '203.0.113.7', 'User-Agent': 'Browser/11', ...at } });
      expect(spoofed.status).toBe(429);
      expect((await api.get('/api/survey/stats/top-doctors-demo')).status).toBe(200);
      // The count lives in the database: a restarted (or second) instance goes on counting.
      await api.restart();
      expect((await api.post(demoBallot(10), { headers: at })).status).toBe(429);
    } finally {
      await api.stop();
    }
  });

  test('with TRUST_PROXY, clients are told apart by the address our proxy added to X-Forwarded-For', async () => {
    const api = await startApi({ RATE_LIMIT_MAX: '2', TRUST_PROXY: '1' });
    const at = oneInstant();
    try {
      const from = (client: string, n: number) => api.post(demoBallot(n), { headers: { 'X-Forwarded-For': `1.2.3.4, ${client}`, ...at } });
      expect((await from('198.51.100.1', 1)).status).toBe(201);
      expect((await from('198.51.100.1', 2)).status).toBe(201);
      expect((await from('198.51.100.1', 3)).status).toBe(429);
      expect((await from('198.51.100.2', 4)).status).toBe(201);
    } finally {
      await api.stop();
    }
  });
});

describe('friction for a burst', () => {
  test('a third public ballot within a minute from one browser at one address waits a stated time; another browser goes on', async () => {
    const api = await startApi({ RATE_LIMIT_MAX: '30', TRUST_PROXY: '1' });
    const at = oneInstant();
    try {
      const from = (agent: string, n: number) =>
        api.post(demoBallot(n), { headers: { 'X-Forwarded-For': '1.2.3.4, 198.51.100.9', 'User-Agent': agent, ...at } });
      expect([(await from('Script/1', 1)).status, (await from('Script/1', 2)).status]).toEqual([201, 201]);
      const third = await from('Script/1', 3);
      expect(third.status).toBe(429);
      expect(third.body.error).toBe('burst');
      const wait = Number(third.headers.get('retry-after'));
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(third.body.message).toBe(
        `Several ballots have just come from this browser. Please wait ${wait} seconds, then send your ballot again: your answers are kept.`,
      );
      expect((await from('Browser/2', 4)).status).toBe(201);
      const stored = await api.db().selectFrom('refused_ballots').select('id').execute();
      expect(stored).toEqual([]);
    } finally {
      await api.stop();
    }
  });
});

describe('test hooks', () => {
  test('are off unless PEERVOTE_TEST_HOOKS is set: X-Peervote-Now and X-Peervote-Fault do nothing', async () => {
    const api = await startApi({ PEERVOTE_TEST_HOOKS: '' });
    try {
      const dentist: Array<[string, string]> = [
        ['full-name', 'Dr. Tooth'],
        ['email', 'tooth@example.org'],
        ['nominations[Dentistry][Orthodontics][1]', 'x'],
      ];
      const late = await api.post(dentist, {
        query: { project_id: 'best-dentists-2024', project_type: 'form' },
        headers: { 'X-Peervote-Now': '2025-01-01T00:00:00Z' },
      });
      expect(late.status).toBe(410);
      expect((await api.post(demoBallot(1), { headers: { 'X-Peervote-Fault': 'ballot:exit' } })).status).toBe(201);
    } finally {
      await api.stop();
    }
  });
});
