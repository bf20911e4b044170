import { execFile } from 'node:child_process';
import { createHash, createSecretKey, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { startApi, type Api } from './helpers.ts';
import { peopleDigest, replacePeople } from '../../src/server/people/people.repository.ts';

// The invited people kept in the database (the `people` table), on the API's own database: what
// invite writes is served at once, kept on a second run, removed with --remove-missing, and read
// again from a prepopulation file edited by hand; the table keys people by their secret's hash.

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
/** Tests that run several commands (a Node process each) get the time for them on a busy machine. */
const SLOW = 120_000;
/** How soon a file edited by hand must show: the API looks at most once a second. */
const FOLLOWED_WITHIN = { timeout: 15_000, interval: 100 };

let api: Api;
let work: string;
let privateDir: string;

async function results(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/results.mjs', ...args], {
      cwd: ROOT,
      env: { ...process.env, SURVEYS_DIR: inject('surveysDir'), DATA_DIR: api.dataDir, DATABASE_URL: api.databaseUrl, PEERVOTE_PRIVATE_DIR: privateDir },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const roster = (rows: string) => {
  const file = path.join(work, `roster-${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(file, `email,name-first,name-last,medical-license\n${rows}`);
  return file;
};

/** The links of invite's list (stdout), by address. */
const linksOf = (stdout: string) =>
  Object.fromEntries(
    stdout
      .trim()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(','))
      .map((cells) => [cells[1], decodeURIComponent(cells[2].split('/').pop()!)]),
  );

const open = (secret: string) => api.get(`/api/survey/link/peer-check?secret=${encodeURIComponent(secret)}`);

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'peervote-people-'));
  privateDir = path.join(work, 'private');
  api = await startApi({ PEERVOTE_PRIVATE_DIR: privateDir });
});
afterAll(async () => {
  await api?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the invited people in the database', () => {
  let links: Record<string, string>;

  test(
    "a link invite writes opens at once; the table keys it by the secret's SHA-256 and holds no secret in the clear",
    async () => {
      const invited = await results(['invite', 'peer-check', '--roster', roster('ada@example.org,Ada,Amos,MD-8001\nbo@example.org,Bo,Berg,MD-8002\n')]);
      expect(invited.code, invited.stderr).toBe(0);
      links = linksOf(invited.stdout);
      const opened = await open(links['ada@example.org']);
      expect(opened.status, JSON.stringify(opened.body)).toBe(200);
      expect(opened.body.prepopulated).toMatchObject({ 'name-first': 'Ada', 'name-last': 'Amos', 'medical-license': 'MD-8001' });

      const rows = await api.db().selectFrom('people').selectAll().where('project_id', '=', 'peer-check').orderBy('position').execute();
      // The fixture's two people on file, and the two invited.
      expect(rows).toHaveLength(4);
      const hashes = rows.map((row) => row.secret_hash);
      for (const secret of Object.values(links)) expect(hashes).toContain(createHash('sha256').update(secret).digest('hex'));
      const stored = JSON.stringify(rows);
      for (const secret of Object.values(links)) expect(stored).not.toContain(secret);
      expect(rows.find((row) => row.email_key === 'bo@example.org')).toMatchObject({ licence_key: 'MD8002' });
    },
    SLOW,
  );

  test(
    'a second run gives a person on file the same link, matched by address in any case; --remove-missing takes a link away at once',
    async () => {
      const again = await results(['invite', 'peer-check', '--roster', roster('ADA@Example.ORG,Ada,Amos-Lee,MD-8001\nbo@example.org,Bo,Berg,MD-8002\n')]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain('invite: 0 added, 1 updated, 1 unchanged');
      expect(linksOf(again.stdout)).toEqual({ 'ADA@Example.ORG': links['ada@example.org'], 'bo@example.org': links['bo@example.org'] });
      expect((await open(links['ada@example.org'])).body.prepopulated).toMatchObject({ 'name-last': 'Amos-Lee' });

      const fewer = await results(['invite', 'peer-check', '--roster', roster('ada@example.org,Ada,Amos-Lee,MD-8001\n'), '--remove-missing']);
      expect(fewer.code, fewer.stderr).toBe(0);
      expect(fewer.stderr).toContain('3 removed');
      const gone = await open(links['bo@example.org']);
      expect(gone).toMatchObject({ status: 404, body: { error: 'invalid_link' } });
      const ballot = await api.post([['affirm', 'on']], { query: { project_id: 'peer-check', project_type: 'form', secret: links['bo@example.org'] } });
      expect(ballot).toMatchObject({ status: 403, body: { error: 'invalid_link' } });
      expect((await open(links['ada@example.org'])).status).toBe(200);
      const left = await api.db().selectFrom('people').select('email_key').where('project_id', '=', 'peer-check').execute();
      expect(left).toEqual([{ email_key: 'ada@example.org' }]);
    },
    SLOW,
  );

  test(
    'a prepopulation file edited by hand while the server runs is read again: a person taken out is refused, one put in opens',
    async () => {
      const file = path.join(privateDir, 'peer-check', 'prepopulation.yaml');
      const text = readFileSync(file, 'utf8');
      const secret = links['ada@example.org'];
      expect(text).toContain(`${secret}:`);
      const edited = text.replace(
        new RegExp(`${secret}:\\n(  .*\\n)+`),
        'sec-hand-Wq4Lm8Zt:\n  name-first: Hal\n  name-last: Hand\n  medical-license: MD-8009\n',
      );
      writeFileSync(file, edited);
      await expect.poll(async () => (await open(secret)).status, FOLLOWED_WITHIN).toBe(404);
      expect((await open('sec-hand-Wq4Lm8Zt')).body.prepopulated).toMatchObject({ 'name-first': 'Hal' });
      // The operator's commands read the same people: invite finds Hal on file.
      const listed = await results(['invite', 'peer-check', '--roster', roster('hal@example.org,Hal,Hand,MD-8009\n')]);
      expect(listed.stderr).toContain('invite: 1 added, 0 updated, 0 unchanged, 1 on file but not on the roster');
      // Neither a secret nor an address in the server's log.
      expect(api.log()).not.toContain(secret);
      expect(api.log()).not.toContain('sec-hand-Wq4Lm8Zt');
      expect(api.log()).not.toContain('example.org');
    },
    SLOW,
  );
});

describe('two processes writing the same people', () => {
  test('a reader that waited for a writer of the same source reads nothing again; a different source it reads', async () => {
    const db = api.db();
    const key = createSecretKey(randomBytes(32));
    const projectId = 'people-race';
    const source = (digest: string) => ({ digest, licenceField: 'medical-license', columns: [], key, now: new Date('2030-01-01T00:00:00Z') });
    const people = (n: number) => [Object.fromEntries(Array.from({ length: n }, (_, i) => [`sec-race-${i}`, { email: `p${i}@race.example` }]))];
    expect(await replacePeople(db, projectId, people(1), source('one'))).toBe(true);

    // A writer (invite) holds its transaction open with the new people; a reader (the API, which
    // saw the old digest) asks to read the same source meanwhile, and waits for the writer.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let wrote = () => {};
    const written = new Promise<void>((resolve) => (wrote = resolve));
    const writer = db.transaction().execute(async (trx) => {
      await replacePeople(trx, projectId, people(3), source('two'));
      wrote();
      await held;
    });
    await written;
    const reader = replacePeople(db, projectId, people(3), { ...source('two'), unlessCurrent: true });
    release();
    await writer;
    expect(await reader).toBe(false);
    expect(await peopleDigest(db, projectId)).toBe('two');
    expect(await db.selectFrom('people').select('secret_hash').where('project_id', '=', projectId).execute()).toHaveLength(3);

    expect(await replacePeople(db, projectId, people(2), { ...source('three'), unlessCurrent: true })).toBe(true);
    expect(await db.selectFrom('people').select('secret_hash').where('project_id', '=', projectId).execute()).toHaveLength(2);
  });
});
