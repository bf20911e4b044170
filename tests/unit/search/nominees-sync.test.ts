import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INDEX_SETTINGS, syncNominees } from '../../../src/server/search/algolia-sync.ts';
import { generateNominees } from '../../../bin/lib/nominee-generator.ts';
import { startRecorder, type Recorded } from '../../support/recorder.ts';

/** Stands in for Algolia's write API: every write answers a task, every task is already published. */
let algolia: Awaited<ReturnType<typeof startRecorder>>;
let task = 0;
beforeAll(async () => {
  algolia = await startRecorder(({ method, path }) => {
    if (method === 'GET' && /\/task\/\d+/.test(path)) return { body: { status: 'published', pendingTask: false } };
    return { body: { taskID: ++task, updatedAt: '2027-01-01T00:00:00Z', objectIDs: [] } };
  });
});
afterAll(() => algolia.close());

const hosts = () => [{ url: algolia.host, protocol: 'http' as const, accept: 'readWrite' as const }];
const route = ({ method, path }: Recorded) => `${method} ${path.split('?')[0]}`;

describe('nominees:sync', () => {
  it('replaces every record through a temporary index, in batches, and reports progress', async () => {
    algolia.requests.length = 0;
    const nominees = generateNominees({ count: 2500, seed: 1, specialties: ['Cardiology'] });
    const lines: string[] = [];
    const result = await syncNominees({
      appId: 'APPID123',
      adminKey: 'admin-key',
      indexName: 'top_doctors',
      nominees,
      hosts: hosts(),
      log: (line) => lines.push(line),
    });
    expect(result).toEqual({ batches: 3, records: 2500 });

    const writes = algolia.requests.filter((request) => request.method !== 'GET');
    const temporary = /^\/1\/indexes\/(top_doctors_tmp_\d+)\/batch$/.exec(writes[2].path.split('?')[0])?.[1];
    expect(temporary).toBeDefined();
    expect(writes.map(route)).toEqual([
      'POST /1/indexes/top_doctors/operation',
      `PUT /1/indexes/${temporary}/settings`,
      `POST /1/indexes/${temporary}/batch`,
      `POST /1/indexes/${temporary}/batch`,
      `POST /1/indexes/${temporary}/batch`,
      `POST /1/indexes/${temporary}/operation`,
    ]);
    expect(writes[0].body).toEqual({ operation: 'copy', destination: temporary, scope: ['rules', 'synonyms'] });
    expect(writes[1].body).toEqual(INDEX_SETTINGS);
    const batches = writes.slice(2, 5).map((w) => (w.body as { requests: Array<{ action: string; body: { objectID: string } }> }).requests);
    expect(batches.map((b) => b.length)).toEqual([1000, 1000, 500]);
    expect(batches.flat().every((r) => r.action === 'addObject')).toBe(true);
    expect(batches.flat().map((r) => r.body.objectID)).toEqual(nominees.map((n) => n.id));
    expect(batches[0][0].body).toEqual({ objectID: nominees[0].id, ...nominees[0] });
    expect(writes[5].body).toEqual({ operation: 'move', destination: 'top_doctors' });
    expect(algolia.requests.every((r) => r.headers['x-algolia-api-key'] === 'admin-key')).toBe(true);
    // Every task is waited for before the move, and the move itself after.
    const moveAt = algolia.requests.indexOf(writes[5]);
    expect(algolia.requests.slice(0, moveAt).filter((r) => r.method === 'GET')).toHaveLength(5);
    expect(algolia.requests.slice(moveAt).filter((r) => r.method === 'GET')).toHaveLength(1);

    expect(lines).toContain('  sent 1,000 / 2,500 nominees (batch 1)');
    expect(lines).toContain('  sent 2,500 / 2,500 nominees (batch 3)');
    expect(lines.at(-1)).toBe('Done: top_doctors holds 2,500 nominees.');
  });

  it('explains what is missing when the survey has no Algolia keys', async () => {
    const run = promisify(execFile);
    const env = { ...process.env, ALGOLIA_ADMIN_KEY: '' };
    const args = ['bin/nominees-sync.ts', 'top-doctors-demo'];
    const failure = await run(process.execPath, args, { env }).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 1 });
    const { stderr } = failure as { stderr: string };
    expect(stderr).toContain('Cannot push the nominees of top-doctors-demo to Algolia; missing:');
    expect(stderr).toContain('algolia_app_id in survey.yaml');
    expect(stderr).toContain('ALGOLIA_ADMIN_KEY in the environment: an admin key');
    expect(stderr).toContain('never goes in survey.yaml');
  });
});
