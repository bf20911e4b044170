import http from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SINK_QUERY, rowCounts, sinkBallot, startApi, toForm, type Api, type Fields } from './helpers.ts';

// The ballot form posted by the browser itself, its scripts off: the headers a browser sends
// for a same-origin form navigation under Referrer-Policy: no-referrer.
const FORM_HEADERS = { Origin: 'null', 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'navigate', Accept: 'text/html,application/xhtml+xml' };

let api: Api;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api?.stop());

/** Posts the ballot over node:http, since fetch sets Sec-Fetch-Mode to `cors` whatever it is told. */
async function postForm(fields: Fields, headers: Record<string, string> = FORM_HEADERS): Promise<Response> {
  const encoded = new Response(toForm(fields));
  const body = Buffer.from(await encoded.arrayBuffer());
  const { hostname, port } = new URL(api.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        hostname,
        port,
        method: 'POST',
        path: `/api/survey?${new URLSearchParams(SINK_QUERY)}`,
        headers: { ...headers, 'Content-Type': encoded.headers.get('content-type')!, 'Content-Length': body.byteLength },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          const out = new Headers();
          for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') out.set(name, value);
          resolve(new Response(res.statusCode === 303 ? null : Buffer.concat(chunks), { status: res.statusCode, headers: out }));
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('a form posted without JavaScript', () => {
  test('is stored and sent on to the thank-you page; a typed nomination is kept as a write-in, a slider position as its option', async () => {
    const before = await rowCounts(api.db());
    // The picked slot sends its typed name beside the id; the others send what was typed.
    const fields = sinkBallot({ 'nominations[Medicine][Cardiology][2]': 'Dr. Typed Name', years: '2' }).concat([
      ['nominations[Medicine][Cardiology][1]', 'Ana Ferreira'],
      ['nominations[Surgery][Neurosurgery][1]', ''],
    ]);
    const response = await postForm(fields);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`${api.url}/kitchen-sink/thankyou`);
    const after = await rowCounts(api.db());
    expect(after.ballots).toBe(before.ballots + 1);
    const ballot = await api.db().selectFrom('ballots').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const writeIns = await api.db().selectFrom('write_ins').select(['name', 'category_group', 'subcategory']).where('ballot_id', '=', ballot.id).execute();
    expect(writeIns).toEqual([{ name: 'Dr. Typed Name', category_group: 'Medicine', subcategory: 'Cardiology' }]);
    const nominations = await api.db().selectFrom('nominations').select(['slot', 'nominee_id']).where('ballot_id', '=', ballot.id).execute();
    expect(nominations).toEqual([{ slot: 1, nominee_id: 'n-1' }]);
    const years = await api
      .db()
      .selectFrom('answers')
      .select('value')
      .where('ballot_id', '=', ballot.id)
      .where('field', '=', 'years')
      .executeTakeFirstOrThrow();
    expect(years.value).toBe('6-10');
  });

  test('refused, it gets an HTML page with the same status, the problems by field label and the way back', async () => {
    const response = await postForm(sinkBallot({ email: undefined, nickname: 'Much too long a nickname' }));
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-/);
    const html = await response.text();
    expect(html).toContain('<h1>Kitchen Sink</h1>');
    expect(html).toContain('<h2>There is a problem</h2>');
    expect(html).toContain('your answers are still there');
    // Each problem once, in its own words, which name the field: never the field name twice.
    expect(html).toContain('<li>Keep the nickname short.</li>');
    expect(html).toMatch(/<li>Email[^<]* is required\.<\/li>/);
  });

  test('escapes what the voter typed', async () => {
    const response = await postForm(sinkBallot({ role: '<script>alert(1)</script>' }));
    expect(response.status).toBe(422);
    expect(await response.text()).not.toContain('<script>');
  });

  test('Origin: null passes only with Sec-Fetch-Site: same-origin, which no page script can set', async () => {
    const response = await postForm(sinkBallot(), { ...FORM_HEADERS, 'Sec-Fetch-Site': 'cross-site' });
    expect(response.status).toBe(403);
  });

  test('the islands’ post is unchanged: JSON in, JSON out', async () => {
    const answer = await api.post(sinkBallot(), { query: SINK_QUERY, headers: { 'Idempotency-Key': '"form-post-json-1"', Accept: 'text/html' } });
    expect(answer.status).toBe(201);
    expect(answer.body.ballot_id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
