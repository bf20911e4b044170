import http from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_QUERY, PDF, demoBallot, rowCounts, startApi, type Api } from './helpers.ts';
import { multipart } from '../support/ballots.mjs';

// A ballot past BODY_SIZE_LIMIT (12 MiB by default) gets its 413 every time, however the client
// sends it: the server reads the rest of the body and throws it away before it answers and
// closes, so the client is never cut off mid-body with its answer unread.

let api: Api;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api?.stop());

/** A demo ballot with a 13 MB PDF attached: over the 12 MiB limit. */
function oversizedBallot(): { body: Buffer; contentType: string } {
  const data = new Uint8Array(13 * 1000 * 1000).fill(0x20);
  data.set(PDF.data);
  return multipart([...demoBallot(), ['cv', { ...PDF, data }]]);
}

/** Posts `body` with node:http, writing all of it (with its length, or in chunks), and reads the whole answer. */
function postWhole(body: Buffer, contentType: string, chunked: boolean): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${api.url}/api/survey?${new URLSearchParams(DEMO_QUERY)}`, {
      method: 'POST',
      agent: false,
      headers: { Origin: api.url, 'Content-Type': contentType, ...(chunked ? {} : { 'Content-Length': String(body.length) }) },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (!chunked) req.end(body);
    else {
      for (let at = 0; at < body.length; at += 64 * 1024) req.write(body.subarray(at, at + 64 * 1024));
      req.end();
    }
  });
}

describe('a 13 MB ballot', () => {
  const { body, contentType } = oversizedBallot();

  for (const chunked of [false, true]) {
    test(`gets its 413 answer, five times in a row (${chunked ? 'sent in chunks' : 'with its Content-Length'})`, async () => {
      for (let attempt = 1; attempt <= 5; attempt++) {
        const answer = await postWhole(body, contentType, chunked);
        expect(answer.status, `attempt ${attempt}`).toBe(413);
        expect(answer.headers.connection).toBe('close');
        expect(JSON.parse(answer.text)).toEqual({
          error: 'body_too_large',
          message: 'The ballot is larger than 12 MB, the most the survey API accepts.',
          problems: [],
        });
      }
    });
  }

  test('stores nothing, and the next ballot is taken as usual', async () => {
    expect(Object.values(await rowCounts(api.db())).every((n) => n === 0)).toBe(true);
    expect(await api.db().selectFrom('refused_ballots').select('id').execute()).toEqual([]);
    const { status } = await api.post(demoBallot(1));
    expect(status).toBe(201);
  });
});
