import http from 'node:http';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_QUERY, PDF, SINK_QUERY, demoBallot, oneInstant, rowCounts, sinkBallot, startApi, type Api } from './helpers.ts';

let api: Api;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api?.stop());

/** Sends a request with any method, CONNECT and TRACE included (fetch refuses those), and reads the answer. */
function rawRequest(url: string, method: string, path: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string } | 'closed'> {
  return new Promise((resolve) => {
    const { hostname, port } = new URL(url);
    const req = http.request({ hostname, port, method, path, headers: { Host: `${hostname}:${port}` } });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('connect', (res, socket, head) => {
      let body = head.toString();
      socket.on('data', (chunk) => (body += chunk));
      socket.on('close', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', () => resolve('closed'));
    req.end();
  });
}

const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'];

describe('secrets are looked up as own keys', () => {
  test.each(PROTOTYPE_NAMES)('%s is an invalid link, on GET link and on POST', async (secret) => {
    const link = await api.get(`/api/survey/link/top-doctors-demo?secret=${secret}`);
    expect(link.status).toBe(404);
    expect(link.body.error).toBe('invalid_link');
    const post = await api.post(demoBallot(1), { query: { ...DEMO_QUERY, secret } });
    expect(post.status).toBe(403);
    expect(post.body.error).toBe('invalid_link');
  });
});

describe('methods a route does not take', () => {
  test.each([
    ['PUT', '/api/survey', 'POST, OPTIONS'],
    ['DELETE', '/api/survey', 'POST, OPTIONS'],
    ['GET', '/api/survey', 'POST, OPTIONS'],
    ['PATCH', '/api/search/top-doctors-demo', 'POST, OPTIONS'],
    ['POST', '/api/health', 'GET, HEAD, OPTIONS'],
    ['DELETE', '/api/survey/link/top-doctors-demo', 'GET, HEAD, OPTIONS'],
  ])('%s %s answers 405 with Allow and the API error shape', async (method, path, allow) => {
    const answer = await rawRequest(api.url, method, path);
    expect(answer).not.toBe('closed');
    if (answer === 'closed') return;
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe(allow);
    expect(JSON.parse(answer.body)).toEqual({ error: 'method_not_allowed', message: `This address takes ${allow}.`, problems: [] });
  });

  // No route takes these: the server answers them before Astro, which cannot even make a Request of them.
  test.each(['TRACE', 'CONNECT'])('%s is answered 405 in the API error shape, never a stack trace', async (method) => {
    const answer = await rawRequest(api.url, method, '/api/survey');
    expect(answer).not.toBe('closed');
    if (answer === 'closed') return;
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'method_not_allowed', problems: [] });
    expect(answer.body).not.toMatch(/\bat .*\.(m?js|ts):\d+/);
  });
});

describe('a request target no URL parser takes', () => {
  // `/\` reads as `//`, an address with an empty host: once, it threw in the request handler and stopped the server.
  test.each(['/\\', '/\\\\x'])('%s is answered 400 in the API error shape, and the server goes on', async (path) => {
    const answer = await rawRequest(api.url, 'GET', path);
    expect(answer).not.toBe('closed');
    if (answer === 'closed') return;
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'bad_request', message: expect.stringMatching(/^This address cannot be served: /), problems: [] });
    expect((await api.get('/api/health')).status).toBe(200);
  });
});

describe('text is text: one rule for control characters on both databases', () => {
  test.each([
    ['a text field', { nickname: 'Ada\u0000' }, 'nickname'],
    ['a write-in', { 'writeins[0][name]': 'Dr. Nul\u0000', 'writeins[0][category]': 'Medicine / Dermatology' }, 'writeins[0][name]'],
    ['a file name', { cv: { ...PDF, name: 'cv\u0000.pdf' } }, 'cv'],
  ])('a NUL character in %s is refused with 400 naming it, and nothing is stored', async (_, changes, path) => {
    const before = await rowCounts(api.db());
    const { status, body } = await api.post(sinkBallot(changes), { query: SINK_QUERY });
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: 'invalid_text', problems: [{ path, message: expect.stringContaining('NUL character') }] });
    expect(await rowCounts(api.db())).toEqual(before);
  });

  test('a NUL character in a query parameter is refused with 400 naming it', async () => {
    const post = await api.post(sinkBallot(), { query: { ...SINK_QUERY, secret: 'ks-grace\u00007Qw2' } });
    expect(post.status).toBe(400);
    expect(post.body).toMatchObject({ error: 'bad_query', problems: [{ path: 'secret' }] });
    const link = await api.get('/api/survey/link/kitchen-sink?secret=%00');
    expect(link.status).toBe(400);
    expect(link.body).toMatchObject({ error: 'bad_query', problems: [{ path: 'secret' }] });
  });

  test('a NUL character in a search query is refused with 400 naming it', async () => {
    const { status, body } = await api.request('/api/search/kitchen-sink', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: api.url },
      body: JSON.stringify({ requests: [{ query: 'an\u0000a' }] }),
    });
    expect(status).toBe(400);
    expect(body.problems).toEqual([{ path: 'requests[0].query', message: expect.stringContaining('NUL character') }]);
  });

  test('other control characters are taken out, tab, newline and carriage return kept; in file names too', async () => {
    const { status, body } = await api.post(
      sinkBallot({ nickname: 'A\u0007d\u001Ba', notes: 'line one\r\n\tline two\u000B', cv: { ...PDF, name: 'c\u0001v.pdf' } }),
      { query: SINK_QUERY },
    );
    expect(status, JSON.stringify(body)).toBe(201);
    const answers = await api
      .db()
      .selectFrom('answers')
      .select(['field', 'value'])
      .where('ballot_id', '=', body.ballot_id)
      .where('field', 'in', ['nickname', 'notes'])
      .orderBy('field')
      .execute();
    expect(answers).toEqual([
      { field: 'nickname', value: 'Ada' },
      { field: 'notes', value: 'line one\r\n\tline two' },
    ]);
    const upload = await api.db().selectFrom('uploads').select('original_name').where('ballot_id', '=', body.ballot_id).executeTakeFirstOrThrow();
    expect(upload.original_name).toBe('cv.pdf');
  });
});

/** The server's peak resident memory so far, in bytes (Linux). */
function peakMemory(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1];
  return Number(kb) * 1024;
}

describe('a search with a wrong parameter', () => {
  test('is refused with 400 in plain words: "expected a whole number", never superstruct\'s "Expected a integer"', async () => {
    const { status, body } = await api.request('/api/search/top-doctors-demo', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: api.url },
      body: JSON.stringify({ requests: [{ query: 'ana', params: { page: -1, hitsPerPage: 1.5 } }] }),
    });
    expect(status).toBe(400);
    expect(body.problems).toEqual([
      { path: 'requests[0].params.page', message: 'expected a whole number greater than or equal to 0 but received `-1`' },
      { path: 'requests[0].params.hitsPerPage', message: 'expected a whole number, got 1.5' },
    ]);
  });
});

describe('search costs bounded time and memory', () => {
  const search = (query: string) =>
    api.request('/api/search/top-doctors-demo', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: api.url },
      body: JSON.stringify({ requests: [{ query }] }),
    });

  test('a query is cut to 100 characters and 8 words', async () => {
    const long = await search('garcia '.repeat(40));
    expect(long.status).toBe(200);
    expect(long.body.results[0].query).toBe(Array(8).fill('garcia').join(' '));
    const word = await search('x'.repeat(500));
    expect(word.body.results[0].query).toBe('x'.repeat(100));
  });

  test('a 100,000-letter query answers quickly with bounded memory, and /api/health answers meanwhile', async () => {
    await search('warm up');
    const before = peakMemory(api.pid);
    const started = performance.now();
    const [answer, health] = await Promise.all([search('a'.repeat(100_000)), api.get('/api/health')]);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(answer.status).toBe(200);
    expect(health.status).toBe(200);
    expect(peakMemory(api.pid) - before).toBeLessThan(64 * 1024 * 1024);
  });

  test('a body over 256 KB is refused with 413', async () => {
    const { status, body } = await search('a'.repeat(300 * 1024));
    expect(status).toBe(413);
    expect(body.error).toBe('body_too_large');
  });
});

describe('search and link checks are rate-limited per client', () => {
  test('past the allowance: 429 with Retry-After; ballots keep their own count', async () => {
    const limited = await startApi({ SEARCH_RATE_LIMIT_MAX: '3', LINK_RATE_LIMIT_MAX: '2', RATE_LIMIT_MAX: '5' });
    const at = oneInstant();
    try {
      const search = () =>
        limited.request('/api/search/top-doctors-demo', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Origin: limited.url, ...at },
          body: '{"requests":[{"query":"ana"}]}',
        });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await search()).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await search();
      expect(refused.body.error).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

      const link = (secret: string) => limited.get(`/api/survey/link/top-doctors-demo?secret=${secret}`, at);
      expect((await link('guess-one-aaaa')).status).toBe(404);
      expect((await link('k7Qm2RzX4pWv')).status).toBe(200);
      const third = await link('guess-two-bbbb');
      expect(third.status).toBe(429);
      expect(third.body).toMatchObject({ error: 'rate_limited', message: 'Too many link checks from this address. Please try again later.' });
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

      expect((await limited.post(demoBallot(1), { headers: at })).status).toBe(201);
    } finally {
      await limited.stop();
    }
  });
});
