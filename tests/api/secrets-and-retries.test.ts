import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_QUERY, demoBallot, rowCounts, startApi, type Api } from './helpers.ts';

let api: Api;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api?.stop());

const personal = { ...DEMO_QUERY, secret: 'k7Qm2RzX4pWv' };

describe('one ballot per personal secret', () => {
  test('a second ballot for the same secret is refused with a clear error, and the first is kept', async () => {
    const first = await api.post(demoBallot(10), { query: personal });
    expect(first.status).toBe(201);
    const second = await api.post(demoBallot(11), { query: personal });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({
      error: 'already_submitted',
      message: 'A ballot has already been received for this personal link; the first one is kept.',
    });
    const rows = await api.db().selectFrom('ballots').selectAll().where('personal_secret', '=', 'k7Qm2RzX4pWv').execute();
    expect(rows).toEqual([expect.objectContaining({ id: first.body.ballot_id, link: 'personal' })]);
    const nominations = await api.db().selectFrom('nominations').select('ballot_id').distinct().execute();
    expect(nominations.map((n) => n.ballot_id)).not.toContain(second.body.ballot_id);
  });

  test('many ballots for one secret at once: exactly one is stored', async () => {
    const query = { ...DEMO_QUERY, secret: 'Tn8Vb3LsQ9dA' };
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => api.post(demoBallot(20 + i), { query })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(19);
  });

  test('the demo secret is exempt', async () => {
    const query = { ...DEMO_QUERY, secret: 'demo' };
    expect((await api.post(demoBallot(12), { query })).status).toBe(201);
    expect((await api.post(demoBallot(13), { query })).status).toBe(201);
  });
});

describe('Idempotency-Key', () => {
  test('a retry with the same key returns the first receipt and stores nothing new', async () => {
    const headers = { 'Idempotency-Key': '"8e03978e-40d5-43e8-bc93-6894a57f9324"' };
    const first = await api.post(demoBallot(30), { headers });
    expect(first.status).toBe(201);
    const before = await rowCounts(api.db());
    const retry = await api.post(demoBallot(30), { headers });
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await rowCounts(api.db())).toEqual(before);
  });

  test('a retry of a personal ballot returns its receipt, not "already submitted"', async () => {
    const query = { ...DEMO_QUERY, secret: 'demo' };
    const headers = { 'Idempotency-Key': 'retry-personal-1' };
    const first = await api.post(demoBallot(31), { query, headers });
    const retry = await api.post(demoBallot(31), { query, headers });
    expect(retry).toMatchObject({ status: 201, body: first.body });
  });

  test('the same key with a different body is refused with 422', async () => {
    const headers = { 'Idempotency-Key': 'reused-key' };
    expect((await api.post(demoBallot(32), { headers })).status).toBe(201);
    const before = await rowCounts(api.db());
    const other = await api.post(demoBallot(33), { headers });
    expect(other.status).toBe(422);
    expect(other.body.error).toBe('idempotency_key_reused');
    expect(await rowCounts(api.db())).toEqual(before);
  });

  test('a retry while the first request is still in flight gets 409; afterwards the receipt', async () => {
    const headers = { 'Idempotency-Key': 'in-flight' };
    // The first is held 3 seconds once it has claimed its key: the retry goes as soon as the claim is stored.
    const slow = api.post(demoBallot(34), { headers: { ...headers, 'X-Peervote-Delay': '3000' } });
    const claim = () => api.db().selectFrom('idempotency_keys').select('state').where('key', '=', 'in-flight').executeTakeFirst();
    await expect.poll(async () => (await claim())?.state, { timeout: 10_000, interval: 20 }).toBe('pending');
    const early = await api.post(demoBallot(34), { headers });
    expect(early.status).toBe(409);
    expect(early.body.error).toBe('request_in_progress');
    const first = await slow;
    expect(first.status).toBe(201);
    const late = await api.post(demoBallot(34), { headers });
    expect(late).toMatchObject({ status: 201, body: first.body });
  });

  test('a key whose ballot was refused stays free: the corrected ballot may use it', async () => {
    const headers = { 'Idempotency-Key': 'fix-and-retry' };
    const broken = demoBallot(35).filter(([name]) => name !== 'email');
    expect((await api.post(broken, { headers })).status).toBe(422);
    expect((await api.post(demoBallot(35), { headers })).status).toBe(201);
  });

  test('a malformed key is refused', async () => {
    const { status, body } = await api.post(demoBallot(36), { headers: { 'Idempotency-Key': '"has space"' } });
    expect(status).toBe(400);
    expect(body.error).toBe('bad_idempotency_key');
  });
});
