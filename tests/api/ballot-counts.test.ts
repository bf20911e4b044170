import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Migrator, sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { DEMO_QUERY, demoBallot, startApi, type Api } from './helpers.ts';
import { createDatabase } from '../../src/server/db/database.ts';
import { migrations } from '../../src/server/db/migrations/index.ts';
import type { Database } from '../../src/server/db/schema.ts';
import { ballotsPerDay, ballotsReceived } from '../../src/server/console/console-views.repository.ts';

// The console's ballot counts per day, kept in the transaction that stores a ballot (not counted
// from the ballots at each request), on this API's database (SQLite or PostgreSQL): they agree
// with the ballots stored, across days and for ballots stored at once, and the migration counts
// the ballots stored before it.

/** The ballots of a survey per day (UTC) as the table holds them: the truth the counts must tell. */
async function countedFromBallots(db: Kysely<Database>, projectId: string): Promise<Array<{ day: string; ballots: number }>> {
  const rows = await db.selectFrom('ballots').select(['created_at']).where('project_id', '=', projectId).execute();
  const days = new Map<string, number>();
  for (const row of rows) days.set(row.created_at.slice(0, 10), (days.get(row.created_at.slice(0, 10)) ?? 0) + 1);
  return [...days].sort(([a], [b]) => a.localeCompare(b)).map(([day, ballots]) => ({ day, ballots }));
}

describe('ballots stored through the API', () => {
  let api: Api;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api?.stop());

  test('are counted on their day, eight at once included, and a refused post counts nothing', async () => {
    const today = new Date();
    const yesterday = new Date(today.getTime() - 86_400_000);
    const at = (day: Date) => ({ 'X-Peervote-Now': day.toISOString() });
    for (const n of [0, 1]) expect((await api.post(demoBallot(n), { headers: at(yesterday) })).status).toBe(201);
    const together = await Promise.all(Array.from({ length: 8 }, (_, n) => api.post(demoBallot(10 + n), { headers: at(today) })));
    expect(together.map((answer) => answer.status)).toEqual(Array(8).fill(201));
    // A ballot the API refuses (no email) stores nothing and counts nothing.
    const refused = await api.post(
      demoBallot(30).filter(([name]) => name !== 'email'),
      { query: DEMO_QUERY, headers: at(today) },
    );
    expect(refused.status).toBe(422);

    const db = api.db();
    const truth = await countedFromBallots(db, 'top-doctors-demo');
    expect(truth.reduce((sum, day) => sum + day.ballots, 0)).toBe(10);
    expect(await ballotsPerDay(db, 'top-doctors-demo')).toEqual(truth);
    expect(await ballotsReceived(db, 'top-doctors-demo')).toBe(10);
    expect(await ballotsReceived(db, 'kitchen-sink')).toBe(0);
    expect(await ballotsPerDay(db, 'kitchen-sink')).toEqual([]);
  });
});

describe('the migration', () => {
  const BEFORE = '20270121000000-people';
  let db: Kysely<Database>;
  let remove: () => Promise<void>;
  beforeAll(async () => {
    const adminUrl = inject('databaseUrl');
    if (adminUrl) {
      const name = `peervote_counts_${process.pid}_${Date.now()}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      db = createDatabase({ databaseUrl: url.toString(), sqliteFile: '', sqliteSynchronous: 'NORMAL', pgPoolMax: 1 }).db;
      remove = async () => {
        const client = new pg.Client({ connectionString: adminUrl });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.end();
      };
    } else {
      const dir = mkdtempSync(path.join(tmpdir(), 'peervote-counts-migration-'));
      db = createDatabase({ sqliteFile: path.join(dir, 'peervote.sqlite'), sqliteSynchronous: 'NORMAL', pgPoolMax: 1 }).db;
      remove = async () => rmSync(dir, { recursive: true, force: true });
    }
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo(BEFORE);
    expect(error).toBeUndefined();
  });
  afterAll(async () => {
    await db?.destroy();
    await remove?.();
  });

  test('counts the ballots stored before it, per survey and day, and the counts go on from there', async () => {
    const ballot = (id: string, projectId: string, createdAt: string) => ({
      id,
      project_id: projectId,
      link: 'public',
      personal_secret: null,
      created_at: createdAt,
    });
    await (db as Kysely<any>)
      .insertInto('ballots')
      .values([
        ballot('b-1', 'top-doctors-demo', '2030-01-01T23:59:59.999Z'),
        ballot('b-2', 'top-doctors-demo', '2030-01-02T00:00:00.000Z'),
        ballot('b-3', 'top-doctors-demo', '2030-01-02T10:00:00.000Z'),
        ballot('b-4', 'kitchen-sink', '2030-01-02T11:00:00.000Z'),
      ])
      .execute();
    const done = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
    expect(done.error).toBeUndefined();
    expect(await ballotsPerDay(db, 'top-doctors-demo')).toEqual([
      { day: '2030-01-01', ballots: 1 },
      { day: '2030-01-02', ballots: 2 },
    ]);
    expect(await ballotsReceived(db, 'top-doctors-demo')).toBe(3);
    expect(await ballotsReceived(db, 'kitchen-sink')).toBe(1);
    // Another shard of a counted day adds to it.
    await db.insertInto('ballot_counts').values({ project_id: 'kitchen-sink', day: '2030-01-02', shard: 5, ballots: 2 }).execute();
    expect(await ballotsPerDay(db, 'kitchen-sink')).toEqual([{ day: '2030-01-02', ballots: 3 }]);
    expect(Number((await sql<{ n: string }>`SELECT count(*) AS n FROM ballot_counts`.execute(db)).rows[0].n)).toBe(4);
  });
});
