import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { sinkBallot, startApi, type Api } from './helpers.ts';

// A deploy while the API runs: a survey folder added or a nominee list changed is served at
// once, without a restart (the API checks its files at most once a second).

let api: Api;
let surveys: string;
beforeAll(async () => {
  surveys = mkdtempSync(path.join(tmpdir(), 'peervote-follow-'));
  cpSync(inject('surveysDir'), surveys, { recursive: true });
  api = await startApi({ SURVEYS_DIR: surveys });
});
afterAll(async () => {
  await api?.stop();
  rmSync(surveys, { recursive: true, force: true });
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 1200));

const search = (projectId: string, query: string) =>
  api.request(`/api/search/${projectId}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: api.url },
    body: JSON.stringify({ requests: [{ query }] }),
  });

describe('the API follows the surveys folder', () => {
  test('a survey added while the server runs takes searches, ballots and reservations at once', async () => {
    const before = (await api.get('/api/health')).body.surveys;
    expect((await search('kitchen-sink-2', 'ana')).status).toBe(404);

    cpSync(path.join(surveys, 'kitchen-sink'), path.join(surveys, 'kitchen-sink-2'), { recursive: true });
    const file = path.join(surveys, 'kitchen-sink-2', 'survey.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('project_id: kitchen-sink', 'project_id: kitchen-sink-2'));
    await settle();

    expect((await api.get('/api/health')).body.surveys).toBe(before + 1);
    const found = await search('kitchen-sink-2', 'ana');
    expect(found.status).toBe(200);
    expect(found.body.results[0].hits.map((hit: { id: string }) => hit.id)).toContain('n-1');
    const ballot = await api.post(sinkBallot({ faces: 'cardiology' }), { query: { project_id: 'kitchen-sink-2', project_type: 'form' } });
    expect(ballot.status, JSON.stringify(ballot.body)).toBe(201);
    expect(ballot.body.reservations).toEqual([{ field: 'faces', tile: 'cardiology', status: 'reserved' }]);
    expect((await api.get('/api/survey/faces/kitchen-sink-2')).body.taken).toContain('cardiology');
  });

  test('a nominee list changed while the server runs is searched at once', async () => {
    expect((await search('kitchen-sink', 'zanzibar')).body.results[0].nbHits).toBe(0);
    appendFileSync(path.join(surveys, 'kitchen-sink', 'nominees.csv'), 'n-77,Zoe Zanzibar,Cardiology\n');
    await settle();
    expect((await search('kitchen-sink', 'zanzibar')).body.results[0].hits).toEqual([expect.objectContaining({ id: 'n-77', name: 'Zoe Zanzibar' })]);
    const ballot = await api.post(sinkBallot({ 'nominations[Medicine][Cardiology][2]': 'n-77' }), {
      query: { project_id: 'kitchen-sink', project_type: 'form' },
    });
    expect(ballot.status).toBe(201);
  });

  test('a survey file broken mid-edit leaves the last good surveys in service', async () => {
    const file = path.join(surveys, 'kitchen-sink-2', 'survey.yaml');
    const good = readFileSync(file, 'utf8');
    writeFileSync(file, `${good}\nlayout: [[{ name: bad, type: phone }]]\n`);
    await settle();
    expect((await search('kitchen-sink-2', 'ana')).status).toBe(200);
    writeFileSync(file, good.replace('survey_title: Kitchen Sink', 'survey_title: Kitchen Sink Two'));
    await settle();
    expect((await search('kitchen-sink-2', 'ana')).status).toBe(200);
  });
});
