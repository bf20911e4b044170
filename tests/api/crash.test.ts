import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PDF, SINK_QUERY, rowCounts, sinkBallot, startApi, type Api } from './helpers.ts';
import { readdirSync, existsSync } from 'node:fs';
import path from 'node:path';

let api: Api;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api?.stop());

const ballot = () => sinkBallot({ faces: 'cardiology', cv: PDF, 'writeins[0][name]': 'Dr. Wu', 'writeins[0][category]': 'Surgery / Neurosurgery' });
const uploads = () => (existsSync(path.join(api.dataDir, 'uploads')) ? readdirSync(path.join(api.dataDir, 'uploads')) : []);
const empty = { ballots: 0, answers: 0, nominations: 0, write_ins: 0, reservations: 0, tile_claims: 0, uploads: 0, idempotency_keys: 0 };

describe('a fault between the inserts of one ballot', () => {
  for (const point of ['ballot', 'answers', 'nominations', 'write-ins', 'reservations', 'uploads', 'idempotency']) {
    test(`thrown after "${point}": 500, and nothing of the ballot remains`, async () => {
      const answer = await api.post(ballot(), { query: SINK_QUERY, headers: { 'X-Peervote-Fault': point, 'Idempotency-Key': `fault-${point}` } });
      expect(answer.status).toBe(500);
      expect(await rowCounts(api.db())).toEqual(empty);
      expect(uploads()).toEqual([]);
    });
  }

  test('a crash of the process mid-transaction leaves no partial ballot; after a restart all is as before', async () => {
    const crashed = api.post(ballot(), { query: SINK_QUERY, headers: { 'X-Peervote-Fault': 'reservations:exit' } }).catch((error: Error) => error);
    expect(await api.stopped()).toBe(86);
    expect(await crashed).toBeInstanceOf(Error);
    await api.restart();
    const counts = await rowCounts(api.db());
    expect(counts).toEqual(empty);
    // The tile the crashed ballot had claimed is free, and the idempotency key is too.
    const again = await api.post(ballot(), { query: SINK_QUERY, headers: { 'Idempotency-Key': 'fault-reservations' } });
    expect(again.status).toBe(201);
    expect(again.body.reservations).toEqual([{ field: 'faces', tile: 'cardiology', status: 'reserved' }]);
  });
});
