import { afterEach, describe, expect, it, vi } from 'vitest';
import { sendBallot, type QueuedBallot } from '../../src/stores/outbox.ts';

const ballot: QueuedBallot = { key: 'k-1', slug: 'demo', url: 'http://127.0.0.1:1/api/survey', entries: [['email', 'a@b.c']], createdAt: 0 };

function answer(status: number, body: unknown = {}) {
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status })));
}

afterEach(() => vi.unstubAllGlobals());

describe('sending a kept ballot', () => {
  it.each([
    [201, 'stored'],
    [500, 'retry'],
    [503, 'retry'],
    [409, 'retry'],
    [429, 'retry'],
    [422, 'refused'],
    [403, 'refused'],
    [410, 'refused'],
  ])('HTTP %i means %s', async (status, kind) => {
    answer(status, { ballot_id: 'b-1' });
    expect((await sendBallot(ballot)).kind).toBe(kind);
  });

  it('a network error means try again', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    expect(await sendBallot(ballot)).toEqual({ kind: 'retry', reason: 'Failed to fetch' });
  });

  it('sends the same idempotency key and every entry on each try', async () => {
    const fetch = vi.fn(async () => new Response('{}', { status: 201 }));
    vi.stubGlobal('fetch', fetch);
    await sendBallot(ballot);
    await sendBallot(ballot);
    const calls = fetch.mock.calls as unknown as Array<[string, RequestInit]>;
    expect(calls.map(([, init]) => (init.headers as Record<string, string>)['Idempotency-Key'])).toEqual(['k-1', 'k-1']);
    expect((calls[0][1].body as FormData).get('email')).toBe('a@b.c');
  });
});
