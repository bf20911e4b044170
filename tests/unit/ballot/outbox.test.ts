import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  afterSend,
  ballotDownload,
  dueBallots,
  isStale,
  reportOnce,
  sendBallot,
  STALE_AFTER_MS,
  type QueuedBallot,
} from '../../../src/ballot/submit/outbox.ts';
import { $reporter } from '../../../src/third-party/reporter.ts';
import { classifyAnswer } from '../../../src/survey/ballots/ballot-answer.ts';

const ballot: QueuedBallot = { key: 'k-1', slug: 'demo', url: 'http://127.0.0.1:1/api/survey?secret=s3cret', entries: [['email', 'a@b.c']], createdAt: 0 };

function answer(status: number, body: unknown = {}) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status })),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('sending a kept ballot', () => {
  it.each([
    [201, {}, 'stored'],
    [500, {}, 'try-later'],
    [503, {}, 'try-later'],
    [409, { error: 'request_in_progress' }, 'in-progress'],
    [409, { error: 'already_submitted' }, 'already-received'],
    [429, {}, 'try-later'],
    [422, { error: 'invalid_ballot', message: 'Some answers need another look.', problems: [] }, 'refused'],
    [403, {}, 'refused'],
    [410, {}, 'refused'],
  ])('HTTP %i %j means %s', async (status, body, kind) => {
    answer(status, body);
    expect((await sendBallot(ballot)).kind).toBe(kind);
  });

  it('a network error means try later', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    expect(await sendBallot(ballot)).toEqual({ kind: 'try-later', reason: 'Failed to fetch', offline: true });
  });

  it('sends the same idempotency key and every entry on each try', async () => {
    const fetch = vi.fn(async () => new Response('{}', { status: 201 }));
    vi.stubGlobal('fetch', fetch);
    await sendBallot(ballot);
    await sendBallot(ballot);
    const calls = fetch.mock.calls as unknown as Array<[string, RequestInit]>;
    expect(calls.map(([, init]) => (init.headers as Record<string, string>)['Idempotency-Key'])).toEqual(['k-1', 'k-1']);
    expect((calls[0][1].body as FormData).get('email')).toBe('a@b.c');
    expect((calls[0][1].headers as Record<string, string>).Accept).toBe('application/json');
  });
});

describe('what the device does after a try', () => {
  it.each([
    [{ status: 201, body: {} }, false, { forget: true, report: false }],
    [{ status: 409, body: { error: 'already_submitted' } }, false, { forget: true, report: false }],
    [{ status: 409, body: { error: 'request_in_progress' } }, false, { forget: false, report: false }],
    [{ status: 422, body: {} }, false, { forget: true, report: true }],
    [{ status: 422, body: {} }, true, { forget: true, report: false }],
    [{ status: 503, body: {} }, false, { forget: false, report: true }],
    [{ status: 503, body: {} }, true, { forget: false, report: false }],
    [{ networkError: 'offline' }, true, { forget: false, report: false }],
  ] as const)('%j (reported before: %s)', (given, reported, decision) => {
    expect(afterSend({ reported }, classifyAnswer(given))).toEqual(decision);
  });
});

describe('a ballot that fails for a day', () => {
  it('is retried on its own until a day after it was made, then waits for the voter', () => {
    vi.useFakeTimers();
    const made = Date.parse('2026-11-22T10:00:00Z');
    const kept = [{ ...ballot, createdAt: made }];
    vi.setSystemTime(made + STALE_AFTER_MS - 1);
    expect(isStale(kept[0], Date.now())).toBe(false);
    expect(dueBallots(kept, Date.now())).toHaveLength(1);
    vi.setSystemTime(made + STALE_AFTER_MS);
    expect(isStale(kept[0], Date.now())).toBe(true);
    expect(dueBallots(kept, Date.now())).toEqual([]);
  });

  it('is reported once, however often it fails', async () => {
    const reports: unknown[] = [];
    $reporter.set((error) => void reports.push(error));
    const mine = { ...ballot, reported: false };
    for (let i = 0; i < 3; i++) await reportOnce(mine, classifyAnswer({ networkError: 'offline' }), {}, false);
    await reportOnce(mine, classifyAnswer({ status: 422, body: {} }), {}, false);
    expect(reports).toHaveLength(1);
    expect(mine.reported).toBe(true);
  });

  it('is not reported when the answer is no failure', async () => {
    const reports: unknown[] = [];
    $reporter.set((error) => void reports.push(error));
    await reportOnce({ ...ballot }, classifyAnswer({ status: 201, body: {} }), {}, false);
    await reportOnce({ ...ballot }, classifyAnswer({ status: 409, body: { error: 'already_submitted' } }), {}, false);
    expect(reports).toEqual([]);
  });

  it('downloads as JSON with its answers, files by name, size and type, and never the link’s secret', async () => {
    const file = new File(['%PDF-1.4'], 'cv.pdf', { type: 'application/pdf' });
    const { name, text } = ballotDownload({
      ...ballot,
      createdAt: Date.parse('2026-11-22T10:00:00Z'),
      entries: [
        ['email', 'a@b.c'],
        ['cv', file],
      ],
    });
    expect(name).toBe('ballot-demo-2026-11-22.json');
    expect(JSON.parse(text)).toMatchObject({
      survey: 'demo',
      key: 'k-1',
      ballot: { email: 'a@b.c', cv: { file: 'cv.pdf', size: 8, type: 'application/pdf' } },
    });
    expect(text).not.toContain('s3cret');
  });
});
