import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../../../src/server/db/schema.ts';
import { answersByField, childRows, nominationRows, readBallots, type StoredBallot } from '../../../src/results/ballots/ballot-reader.ts';
import { ballotInSurvey, ballotsPage, ballotsStatement, countBallots, type BallotShape } from '../../../src/results/ballots/ballots.repository.ts';
import { CompiledQuery } from 'kysely';
import { AlreadySubmittedError, storeBallot } from '../../../src/server/intake/ballots.repository.ts';
import { scratchDatabase, storePeerCheck } from '../../support/results-db.ts';

let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let db: Kysely<Database>;
let ids: string[];

/** Everything a ballot can be read with: the signals' hashes, two answers, every child list. */
const EVERYTHING: BallotShape = {
  answerFields: ['email', 'medical-practice'],
  children: ['answers', 'nominations', 'writeIns', 'reservations', 'uploads'],
  hashes: true,
};

async function readAll(shape: BallotShape, pageSize?: number): Promise<StoredBallot[][]> {
  const pages: StoredBallot[][] = [];
  for await (const page of readBallots(db, 'peer-check', { ...shape, pageSize })) pages.push(page);
  return pages;
}

beforeAll(async () => {
  scratch = await scratchDatabase();
  db = scratch.db;
  ids = await storePeerCheck(db);
  await db.updateTable('ballots').set({ client_hash: 'client-1', agent_hash: 'agent-1' }).where('id', '=', ids[0]).execute();
});
afterAll(() => scratch?.close());

describe('the ballot reader', () => {
  test('finds each ballot’s child rows through an index: no child table is read whole for every ballot', async () => {
    const statement = ballotsStatement(db, 'peer-check', EVERYTHING);
    const { rows } = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${statement.sql}`, [...statement.parameters]));
    const details = rows.map((row) => row.detail);
    expect(details.length).toBeGreaterThan(5);
    expect(details.filter((detail) => /^SCAN (answers|nominations|write_ins|reservations|uploads)\b/.test(detail))).toEqual([]);
    // Each list is found by the index whose key, after the ballot, is the list's order: the
    // aggregates, which have no ORDER BY on SQLite, take the rows in that order.
    for (const index of [
      'SEARCH answers USING PRIMARY KEY (ballot_id=?)',
      'SEARCH nominations USING PRIMARY KEY (ballot_id=?)',
      'SEARCH write_ins USING PRIMARY KEY (ballot_id=?)',
      'SEARCH reservations USING PRIMARY KEY (ballot_id=?)',
      'SEARCH uploads USING INDEX uploads_ballot (ballot_id=?)',
    ])
      expect(details).toContain(index);
    expect(details.filter((detail) => /TEMP B-TREE FOR (group_concat|json_group_array)/.test(detail))).toEqual([]);
  });

  test('counts and finds a survey’s ballots', async () => {
    expect(await countBallots(db, 'peer-check')).toBe(9);
    expect(await countBallots(db, 'another-survey')).toBe(0);
    expect(await ballotInSurvey(db, 'peer-check', ids[3])).toBe(true);
    expect(await ballotInSurvey(db, 'another-survey', ids[3])).toBe(false);
    expect(await ballotInSurvey(db, 'peer-check', 'no-such-ballot')).toBe(false);
  });

  test('reads every ballot once, in the order received, a page at a time, with what it was asked for', async () => {
    const pages = await readAll(EVERYTHING, 2);
    expect(pages.map((page) => page.length)).toEqual([2, 2, 2, 2, 1]);
    const ballots = pages.flat();
    expect(ballots.map((ballot) => ballot.id)).toEqual(ids);
    const [first] = ballots;
    expect(first).toMatchObject({
      link: 'public',
      personal_secret: null,
      created_at: '2030-01-01T09:00:00.000Z',
      client_hash: 'client-1',
      agent_hash: 'agent-1',
    });
    expect(answersByField(EVERYTHING.answerFields)(first).get('medical-practice')).toBe('Riverside Heart');
    expect(answersByField(EVERYTHING.answerFields)(ballots[5]).get('email')).toBeUndefined();
    expect(nominationRows(first.children.nominations)).toEqual([
      ['Medicine', 'Cardiology', 1, 'c-2'],
      ['Medicine', 'Cardiology', 2, 'c-3'],
      ['Medicine', 'Dermatology', 1, 'd-1'],
    ]);
    expect(childRows<[string, string]>(first.children.answers)).toContainEqual(['email', 'carl@example.org']);
    expect(childRows<[string, string, string | null]>(first.children.reservations)).toEqual([['faces', 'faces', 'cardiology', null, 'reserved']]);
    expect(childRows(first.children.uploads)).toEqual([]);
    expect(ballots.find((ballot) => ballot.link === 'demo')).toBeDefined();
  });

  test('without the hashes a ballot carries none; with no answer field or child, its own columns alone', async () => {
    const [ballot] = (await readAll({ answerFields: [], children: [] })).flat();
    expect(ballot).toEqual({
      id: ids[0],
      link: 'public',
      personal_secret: null,
      created_at: '2030-01-01T09:00:00.000Z',
      status: 'current',
      replaced_by: null,
      replaced_at: null,
      verified_email: null,
      fill_seconds: null,
      answers: [],
      children: {},
    });
  });

  test('the thread on an SQLite file and the keyset pages give the same rows, cell for cell', async () => {
    const threaded = (await readAll(EVERYTHING)).flat();
    const first = await ballotsPage(db, 'peer-check', EVERYTHING, undefined, 5);
    const last = first.at(-1)!;
    const rest = await ballotsPage(db, 'peer-check', EVERYTHING, { createdAt: last[3] as string, id: last[0] as string }, 5);
    expect(rest).toHaveLength(4);
    expect([...first, ...rest]).toEqual(
      threaded.map((b) => [
        b.id,
        b.link,
        b.personal_secret,
        b.created_at,
        b.replaced_by,
        b.replaced_at,
        b.verified_email,
        b.fill_seconds,
        b.client_hash,
        b.agent_hash,
        ...b.answers,
        ...EVERYTHING.children.map((c) => b.children[c]),
      ]),
    );
  });

  test('a ballot a later one of the same voter replaced reads as replaced, the later one as current', async () => {
    const replacedScratch = await scratchDatabase();
    try {
      const record = (id: string, at: string) => ({
        id,
        projectId: 'peer-check',
        link: 'personal' as const,
        personalSecret: 'sec-1',
        createdAt: new Date(at),
        parts: { answers: [], nominations: [], writeIns: [], reservations: [] },
        uploads: [],
        verifiedEmail: 'ann@example.org',
      });
      await storeBallot(replacedScratch.db, record('b-1', '2030-01-01T09:00:00.000Z'));
      await expect(storeBallot(replacedScratch.db, record('b-2', '2030-01-01T10:00:00.000Z'))).rejects.toThrow(AlreadySubmittedError);
      const receipt = await storeBallot(replacedScratch.db, { ...record('b-3', '2030-01-01T11:00:00.000Z'), replaces: true });
      expect(receipt.replaced_sent_at).toBe('2030-01-01T09:00:00.000Z');
      const read: StoredBallot[] = [];
      for await (const page of readBallots(replacedScratch.db, 'peer-check', { answerFields: [], children: [] })) read.push(...page);
      expect(read.map((b) => [b.id, b.status, b.replaced_by, b.replaced_at, b.verified_email])).toEqual([
        ['b-1', 'replaced', 'b-3', '2030-01-01T11:00:00.000Z', 'ann@example.org'],
        ['b-3', 'current', null, null, 'ann@example.org'],
      ]);
    } finally {
      await replacedScratch.close();
    }
  });
});
