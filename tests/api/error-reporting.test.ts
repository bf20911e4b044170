import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_QUERY, SINK_QUERY, demoBallot, sinkBallot, startApi, type Api } from './helpers.ts';
import { startSentryRecorder } from '../support/sentry-recorder.ts';

let sentry: Awaited<ReturnType<typeof startSentryRecorder>>;
let api: Api;
beforeAll(async () => {
  sentry = await startSentryRecorder(4740);
  api = await startApi({ SENTRY_DSN: sentry.dsn, SENTRY_ENVIRONMENT: 'api-test', SENTRY_RELEASE: 'peervote@1.2.3' });
});
afterAll(async () => {
  await api?.stop();
  await sentry?.close();
});

describe('server-side errors of the survey API', () => {
  test('are answered 500 in the API error shape and reported to Sentry with environment, release and route', async () => {
    // A personal link's ballot: its secret (Evelyn's, of the demo survey) must not reach Sentry.
    const secret = 'k7Qm2RzX4pWv';
    const answer = await api.post(demoBallot(1), { query: { ...DEMO_QUERY, secret }, headers: { 'X-Peervote-Fault': 'answers' } });
    expect(answer.status).toBe(500);
    expect(answer.body).toMatchObject({ error: 'server_error', problems: [] });
    await expect.poll(() => sentry.events().length, { timeout: 10_000 }).toBe(1);
    const [{ event }] = sentry.events();
    expect(event.exception.values[0]).toMatchObject({ type: 'InjectedFault', value: 'fault injected at answers' });
    expect(event).toMatchObject({ environment: 'api-test', release: 'peervote@1.2.3', tags: { route: '/api/survey' } });
    expect(event.contexts.request).toEqual({ method: 'POST', path: '/api/survey' });
    expect(JSON.stringify(sentry.envelopes)).not.toContain(secret);
  });

  test('every API answer carries the API Content-Security-Policy', async () => {
    const answer = await api.get('/api/health');
    expect(answer.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
  });

  test('without SENTRY_DSN nothing is sent, and the error is still answered 500', async () => {
    const before = sentry.envelopes.length;
    await api.restart({ SENTRY_DSN: '' });
    const answer = await api.post(sinkBallot(), { query: SINK_QUERY, headers: { 'X-Peervote-Fault': 'answers' } });
    expect(answer.status).toBe(500);
    // A report goes before the 500 does (the API waits for Sentry's answer): nothing has come.
    expect(sentry.envelopes.length).toBe(before);
    // Nor later: the server with a DSN again, under another release, sends the next error's report,
    // and that one alone arrives after the first.
    await api.restart({ SENTRY_RELEASE: 'peervote@after' });
    expect((await api.post(sinkBallot(), { query: SINK_QUERY, headers: { 'X-Peervote-Fault': 'answers' } })).status).toBe(500);
    await expect.poll(() => sentry.envelopes.length, { timeout: 10_000 }).toBe(before + 1);
    expect(sentry.events().at(-1)?.event).toMatchObject({ release: 'peervote@after' });
  });
});
