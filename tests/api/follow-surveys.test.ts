import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { sinkBallot, startApi, type Api } from './helpers.ts';

// A deploy while the API runs: a survey folder added or a nominee list changed is served at
// once, without a restart. The API checks its files at most once a second, on a request: each
// test asks until the change shows, within FOLLOWED_WITHIN.

/** How soon a change of the surveys folder must show: the API looks at most once a second, so this leaves room for a slow machine. */
const FOLLOWED_WITHIN = { timeout: 15_000, interval: 100 };

let api: Api;
let surveys: string;
beforeAll(async () => {
  surveys = mkdtempSync(path.join(tmpdir(), 'peervote-follow-'));
  cpSync(inject('surveysDir'), surveys, { recursive: true });
  // The receipt check's plain page shows a survey's title (and is asked often here).
  api = await startApi({ SURVEYS_DIR: surveys, RECEIPT_RATE_LIMIT_MAX: '0' });
});
afterAll(async () => {
  await api?.stop();
  rmSync(surveys, { recursive: true, force: true });
});

/** The title of a survey as the API's plain pages show it (the receipt check's, asked with no code). */
const title = async (projectId: string) => /<h1>(.*?)<\/h1>/.exec((await api.get(`/api/survey/receipt/${projectId}`, { Accept: 'text/html' })).body)?.[1];

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

    await expect.poll(async () => (await api.get('/api/health')).body.surveys, FOLLOWED_WITHIN).toBe(before + 1);
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
    await expect
      .poll(async () => (await search('kitchen-sink', 'zanzibar')).body.results[0].hits, FOLLOWED_WITHIN)
      .toEqual([expect.objectContaining({ id: 'n-77', name: 'Zoe Zanzibar' })]);
    const ballot = await api.post(sinkBallot({ 'nominations[Medicine][Cardiology][2]': 'n-77' }), {
      query: { project_id: 'kitchen-sink', project_type: 'form' },
    });
    expect(ballot.status).toBe(201);
  });

  test('a personal link written while the server runs opens and takes a ballot at once, without waiting for the next look at the files', async () => {
    const secret = 'sec-new-Q8vd3Lm2';
    const link = () => api.get(`/api/survey/link/peer-check?secret=${secret}`);
    // Asked now, the API has just looked at its files: left to its once a second, it would see the new link only a second later.
    expect((await link()).status).toBe(404);
    appendFileSync(path.join(surveys, 'peer-check', 'prepopulation.yaml'), `${secret}:\n  name-first: Nia\n  name-last: New\n  medical-license: MD-1999\n`);
    const opened = await link();
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body.prepopulated).toMatchObject({ 'name-first': 'Nia', 'name-last': 'New' });

    // A ballot, too, from a link written a moment after the API's last look.
    appendFileSync(
      path.join(surveys, 'peer-check', 'prepopulation.yaml'),
      'sec-next-K2pw7Zr4:\n  name-first: Ned\n  name-last: Next\n  medical-license: MD-1998\n',
    );
    const stored = await api.post(
      [
        ['name-first', 'Ned'],
        ['name-last', 'Next'],
        ['email', 'ned@peer.example'],
        ['nominations[Medicine][Cardiology][1]', 'c-3'],
        ['affirm', 'on'],
      ],
      { query: { project_id: 'peer-check', project_type: 'form', secret: 'sec-next-K2pw7Zr4' } },
    );
    expect(stored.status, JSON.stringify(stored.body)).toBe(201);
  });

  test('a survey file broken mid-edit leaves the last good surveys in service', async () => {
    const file = path.join(surveys, 'kitchen-sink-2', 'survey.yaml');
    const good = readFileSync(file, 'utf8');
    expect(await title('kitchen-sink-2')).toBe('Kitchen Sink');
    writeFileSync(file, `${good}\nlayout: [[{ name: bad, type: phone }]]\n`);
    // The API has read the broken file once it logs that it kept the last good surveys.
    await expect
      .poll(async () => {
        await search('kitchen-sink-2', 'ana');
        return api.log();
      }, FOLLOWED_WITHIN)
      .toContain('Kept the surveys in service as they were');
    expect((await search('kitchen-sink-2', 'ana')).status).toBe(200);
    expect(await title('kitchen-sink-2')).toBe('Kitchen Sink');
    writeFileSync(file, good.replace('survey_title: Kitchen Sink', 'survey_title: Kitchen Sink Two'));
    await expect.poll(() => title('kitchen-sink-2'), FOLLOWED_WITHIN).toBe('Kitchen Sink Two');
    expect((await search('kitchen-sink-2', 'ana')).status).toBe(200);
  });
});
