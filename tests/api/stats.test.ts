import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_QUERY, SINK_QUERY, demoBallot, sinkBallot, startApi, type Api } from './helpers.ts';

let api: Api;
beforeAll(async () => {
  api = await startApi();
  const hospitals = ['St. Mary', 'st.  mary ', 'ST. MARY', 'Lakeside', 'Lakeside', 'Hilltop', '', 'St. Mary'];
  for (const [i, hospital] of hospitals.entries()) {
    const day = i < 5 ? '2030-01-01T10:00:00Z' : '2030-01-02T10:00:00Z';
    const answer = await api.post(
      sinkBallot({
        hospital,
        'full-name': `V${i}`,
        'writeins[0][name]': i === 0 ? 'Dr. Wu' : '',
        'writeins[0][category]': i === 0 ? 'Surgery / Neurosurgery' : '',
      }),
      {
        query: SINK_QUERY,
        headers: { 'X-Peervote-Now': day },
      },
    );
    expect(answer.status).toBe(201);
  }
  // Demo ballots are not counted.
  expect((await api.post(sinkBallot({ hospital: 'Lakeside' }), { query: { ...SINK_QUERY, secret: 'demo' } })).status).toBe(201);
});
afterAll(() => api?.stop());

describe('stats', () => {
  test('ballots in total and per day, nominations per category, write-ins', async () => {
    const { status, body } = await api.get('/api/survey/stats/kitchen-sink');
    expect(status).toBe(200);
    expect(body).toEqual({
      project_id: 'kitchen-sink',
      ballots: 8,
      ballots_per_day: [
        { day: '2030-01-01', ballots: 5 },
        { day: '2030-01-02', ballots: 3 },
      ],
      nominations_per_category: [{ group: 'Medicine', subcategory: 'Cardiology', nominations: 16 }],
      write_ins: 1,
    });
  });

  test('ballots per workplace: names normalised, fewer than 3 ballots folded into "Other"', async () => {
    const { status, body } = await api.get('/api/survey/workplace-stats/kitchen-sink');
    expect(status).toBe(200);
    expect(body).toEqual({
      project_id: 'kitchen-sink',
      field: 'hospital',
      ballots: 8,
      workplaces: [
        { name: 'St. Mary', ballots: 4 },
        { name: 'Other', ballots: 4 },
      ],
    });
  });

  test('the default workplace field is medical-practice', async () => {
    for (let i = 0; i < 3; i++) await api.post(demoBallot(5 * i), { query: DEMO_QUERY }); // all at Northgate Family Clinic
    const { body } = await api.get('/api/survey/workplace-stats/top-doctors-demo');
    expect(body).toMatchObject({ field: 'medical-practice', workplaces: [{ name: 'Northgate Family Clinic', ballots: 3 }] });
  });

  test('no nominee id and no vote count of a nominee is ever exposed', async () => {
    for (const path of ['/api/survey/stats/kitchen-sink', '/api/survey/workplace-stats/kitchen-sink', '/api/survey/stats/top-doctors-demo']) {
      const text = JSON.stringify((await api.get(path)).body);
      expect(text).not.toMatch(/n-1|n-2|nominee-/);
    }
  });

  test('unknown projects are 404', async () => {
    expect((await api.get('/api/survey/stats/nope')).status).toBe(404);
    expect((await api.get('/api/survey/workplace-stats/nope')).status).toBe(404);
  });
});
