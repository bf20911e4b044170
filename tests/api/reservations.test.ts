import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SINK_QUERY, sinkBallot, startApi, type Api } from './helpers.ts';

let api: Api;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api?.stop());

const DAY = 24 * 60 * 60 * 1000;

describe('Faces', () => {
  test('50 ballots claiming one tile at once: exactly one gets it, all 50 are stored', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => api.post(sinkBallot({ 'full-name': `Voter ${i}`, faces: 'cardiology' }), { query: SINK_QUERY })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(201));
    const statuses = answers.map((a) => a.body.reservations[0].status);
    expect(statuses.filter((s) => s === 'reserved')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'lost')).toHaveLength(49);
    expect(answers[0].body.reservations[0]).toMatchObject({ field: 'faces', tile: 'cardiology' });
    const winner = answers.find((a) => a.body.reservations[0].status === 'reserved')!;
    const claims = await api.db().selectFrom('tile_claims').selectAll().where('tile', '=', 'cardiology').execute();
    expect(claims).toEqual([expect.objectContaining({ ballot_id: winner.body.ballot_id, expires_at: null })]);
    const lost = await api.db().selectFrom('reservations').select('status').where('tile', '=', 'cardiology').execute();
    expect(lost.filter((r) => r.status === 'lost')).toHaveLength(49);
  });

  test('the look-up lists tiles taken by ballots and by the survey, and the past participants', async () => {
    const { status, body } = await api.get('/api/survey/faces/kitchen-sink');
    expect(status).toBe(200);
    expect(body.taken.sort()).toEqual(['cardiology', 'dermatology']);
    expect(body.confirmed).toEqual(['Dr. Past, THE FACE OF Cardiology 2026']);
  });

  test('a Faces tile stays taken for good', async () => {
    const { body } = await api.get('/api/survey/faces/kitchen-sink', { 'X-Peervote-Now': new Date(Date.now() + 365 * DAY).toISOString() });
    expect(body.taken).toContain('cardiology');
  });

  test('a tile with its own slug is claimed by the slug; a custom text is kept as custom', async () => {
    const sports = await api.post(sinkBallot({ faces: 'sports' }), { query: SINK_QUERY });
    expect(sports.body.reservations).toEqual([{ field: 'faces', tile: 'sports', status: 'reserved' }]);
    const custom = await api.post(sinkBallot({ 'faces[custom]': 'THE FACE OF Geriatrics' }), { query: SINK_QUERY });
    expect(custom.body.reservations).toEqual([{ field: 'faces', tile: 'THE FACE OF Geriatrics', status: 'custom' }]);
  });

  test('unknown projects are 404', async () => {
    expect((await api.get('/api/survey/faces/nope')).status).toBe(404);
    expect((await api.get('/api/survey/experts/nope')).status).toBe(404);
  });
});

describe('Experts', () => {
  const t0 = new Date('2030-03-01T12:00:00Z');
  const at = (ms: number) => ({ 'X-Peervote-Now': new Date(t0.getTime() + ms).toISOString() });
  const coffee = 'is-coffee-good-for-me';

  test('a claim holds for five days, as the expert text promises, and then no longer blocks', async () => {
    const first = await api.post(sinkBallot({ asktheexpert: coffee }), { query: SINK_QUERY, headers: at(0) });
    expect(first.body.reservations).toEqual([{ field: 'asktheexpert', tile: coffee, status: 'reserved' }]);
    expect((await api.get('/api/survey/experts/kitchen-sink', at(4 * DAY))).body.taken).toContain(coffee);
    const during = await api.post(sinkBallot({ asktheexpert: coffee }), { query: SINK_QUERY, headers: at(4 * DAY) });
    expect(during.body.reservations[0].status).toBe('lost');
    expect((await api.get('/api/survey/experts/kitchen-sink', at(5 * DAY + 1000))).body.taken).not.toContain(coffee);
    const after = await api.post(sinkBallot({ asktheexpert: coffee }), { query: SINK_QUERY, headers: at(5 * DAY + 1000) });
    expect(after.body.reservations[0].status).toBe('reserved');
    expect((await api.get('/api/survey/experts/kitchen-sink', at(6 * DAY))).body).toEqual({ taken: [coffee], confirmed: ['Dr. Expert, Sleep'] });
  });

  test('after expiry, many ballots claiming the tile at once: still exactly one winner', async () => {
    const later = at(20 * DAY);
    const answers = await Promise.all(Array.from({ length: 30 }, () => api.post(sinkBallot({ asktheexpert: coffee }), { query: SINK_QUERY, headers: later })));
    expect(answers.filter((a) => a.body.reservations[0].status === 'reserved')).toHaveLength(1);
  });
});
