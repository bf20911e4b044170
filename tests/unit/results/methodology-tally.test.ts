import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { create } from 'superstruct';
import type { Kysely } from 'kysely';
import type { Database } from '../../../src/server/db/schema.ts';
import { TallyConfig } from '../../../src/survey/config/tally.struct.ts';
import { tallySurvey, type Exclusion } from '../../../src/results/tally/tally.ts';
import { exclusionCsvLine, rankTally, tallyCsv, type Threshold } from '../../../src/results/tally/tally-report.ts';
import { peerCheck, scratchDatabase, storeBallots, storePeerCheck } from '../../support/results-db.ts';
import { PEER_CHECK_TALLY } from '../../support/peer-check-ballots.ts';

// The peer-check ballots (one per rule, see peer-check-ballots.ts) counted under other methodologies.
const base = peerCheck();
let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let db: Kysely<Database>;
let ids: string[];

beforeAll(async () => {
  scratch = await scratchDatabase();
  db = scratch.db;
  ids = await storePeerCheck(db);
});
afterAll(() => scratch?.close());

/** The peer-check survey with a `tally:` block. */
const under = (block: unknown) => ({ ...base, survey: { ...base.survey, config: { ...base.survey.config, tally: create(block, TallyConfig) } } });

async function csv(block: unknown, threshold?: Threshold, extra: Partial<Parameters<typeof tallySurvey>[1]> = {}) {
  const input = under(block);
  const tally = await tallySurvey(db, { ...input, ...extra });
  return { tally, results: rankTally(input.survey.config, tally, threshold), text: tallyCsv(rankTally(input.survey.config, tally, threshold), tally) };
}
const winners = (results: Awaited<ReturnType<typeof csv>>['results']) =>
  results.map((sub) =>
    sub.rows
      .filter((row) => row.winner)
      .map((row) => row.nomineeId)
      .join(' '),
  );

describe('a tally: block', () => {
  test('written out with the defaults, it gives the exact CSV of the sample rules', async () => {
    const block = {
      self_vote: { rule: 'outside_votes', outside_votes: 2 },
      same_practice: 'count',
      points: [1],
      duplicates: ['secret', 'email', 'license'],
      publish: { ties: 'include' },
    };
    expect((await csv(block, { top: 2 })).text).toBe(PEER_CHECK_TALLY);
  });

  test('points per slot: a first choice weighs 3, a second 2, a third and a write-in 1; ranks and shares follow the points', async () => {
    const { text } = await csv({ points: [3, 2, 1] });
    expect(text.split('\r\n').slice(0, 8)).toEqual([
      'category,subcategory,rank,nominee_id,nominee,practice,counted,points,share,winner,excluded_demo_ballot,excluded_operator_excluded,excluded_duplicate_ballot,excluded_not_on_list,excluded_repeat_on_ballot,excluded_self_vote',
      'Medicine,Cardiology,1,c-2,Bo Lindqvist,Riverside Heart,5,11,55.0,,1,0,0,0,1,0',
      'Medicine,Cardiology,2,c-3,Chen Wei,Lakeside Group,3,6,30.0,,0,0,0,0,0,0',
      'Medicine,Cardiology,3,c-4,Dana Kowalski,Northgate Clinic,1,3,15.0,,0,0,1,0,0,0',
      'Medicine,Cardiology,,c-1,Ana Ferreira,Northgate Clinic,0,0,0.0,,0,0,0,0,0,1',
      'Medicine,Dermatology,1,d-1,Émile Roux,Skin Partners,2,4,57.1,,0,0,0,0,0,0',
      'Medicine,Dermatology,2,d-2,Fatima Khan,Northgate Clinic,1,2,28.6,,0,0,1,0,0,0',
      'Medicine,Dermatology,3,wi-hana-sato,Hana Sato,,1,1,14.3,,0,0,0,0,0,0',
    ]);
  });

  test.each([
    ['no screening: the repeated ballots count', [], { duplicate: 0, c4: 2, d2: 2 }],
    ['by email alone: the ballot that shares only a license counts', ['email'], { duplicate: 1, c4: 1, d2: 2 }],
    ['by license alone: the ballot that shares only an email counts', ['license'], { duplicate: 1, c4: 2, d2: 1 }],
  ])('duplicates %s', async (_, duplicates, expected) => {
    const { tally } = await csv({ duplicates });
    const counted = (id: string) => tally.rows.find((row) => row.nomineeId === id)!.counted;
    expect({ duplicate: tally.totals.excluded.duplicate_ballot, c4: counted('c-4'), d2: counted('d-2') }).toEqual(expected);
  });

  test.each([
    ['publish.top 2, ties included', { publish: { top: 2 } }, undefined, ['c-2 c-3', 'd-1 d-2 wi-hana-sato']],
    ['publish.top 2, ties excluded', { publish: { top: 2, ties: 'exclude' } }, undefined, ['c-2 c-3', 'd-1']],
    ['publish.top 2 and min_votes 2', { publish: { top: 2 }, min_votes: 2 }, undefined, ['c-2 c-3', 'd-1']],
    ['min_share 50: named on half the ballots that vote in the sub-category (5 and 3)', { min_share: 50 }, undefined, ['c-2 c-3', 'd-1']],
    ['min_share 60', { min_share: 60 }, undefined, ['c-2 c-3', 'd-1']],
    ['min_share 70', { min_share: 70 }, undefined, ['c-2', '']],
    ['--threshold 1 replaces publish.top 2', { publish: { top: 2 } }, { top: 1 }, ['c-2', 'd-1']],
    ['--threshold 30% replaces publish.top 1', { publish: { top: 1 } }, { share: 0.3 }, ['c-2 c-3', 'd-1']],
    ['no cut: no winner', {}, undefined, ['', '']],
  ])('%s', async (_, block, threshold, expected) => {
    expect(winners((await csv(block, threshold)).results)).toEqual(expected);
  });

  test('a rule turned on adds its column; a flag rule counts the vote and marks it', async () => {
    const { text, tally } = await csv({ same_practice: 'exclude', subcategory_match: { rule: 'flag' } });
    const [header, ...rows] = text.trim().split('\r\n');
    expect(header).toBe(
      'category,subcategory,rank,nominee_id,nominee,practice,counted,share,winner,excluded_demo_ballot,excluded_operator_excluded,excluded_duplicate_ballot,excluded_not_on_list,excluded_repeat_on_ballot,excluded_self_vote,excluded_same_practice,flagged_outside_subcategory',
    );
    // Carl (Riverside Heart) named c-2 and Greta (Skin Partners) d-1: colleagues. Dana's c-4 is herself, judged as a self-vote.
    expect(rows.find((row) => row.includes(',d-1,'))).toBe('Medicine,Dermatology,1,d-1,Émile Roux,Skin Partners,1,33.3,,0,0,0,0,0,0,1,0');
    expect(tally.totals.excluded.same_practice).toBe(2);
    expect(rows.find((row) => row.includes(',c-2,'))).toMatch(/^Medicine,Cardiology,1,c-2,Bo Lindqvist,Riverside Heart,4,/);
  });
});

test('a flagged vote counts, has its column, and is listed with its reason and "counted, flagged"', async () => {
  const lines: string[] = [];
  const { text } = await csv({ subcategory_match: { rule: 'flag', nominee_field: 'practice' } }, undefined, {
    onExclusion: (e) => void lines.push(exclusionCsvLine(e)),
  });
  expect(text.split('\r\n')[1]).toBe('Medicine,Cardiology,1,c-2,Bo Lindqvist,Riverside Heart,5,55.6,,1,0,0,0,1,0,5');
  expect(lines.find((line) => line.startsWith(ids[0]) && line.includes(',c-2,'))).toBe(
    `${ids[0]},2030-01-01T09:00:00.000Z,Medicine,Cardiology,c-2,Bo Lindqvist,slot,,outside_subcategory,"counted, flagged: the nominee's practice is Riverside Heart, not Cardiology"\r\n`,
  );
});

describe('operator exclusions (excludedBallots)', () => {
  test("the ballot's votes count under operator_excluded with the why; the ballot claims no identity, so a later one from the same person stands", async () => {
    const exclusions: Exclusion[] = [];
    const excludedBallots = new Map([[ids[0], { reason: 'sent from a shared clinic account', auditId: 'audit-1' }]]);
    const { tally, text } = await csv({}, undefined, { excludedBallots, onExclusion: (e) => void exclusions.push(e) });
    expect(text.split('\r\n')[0]).toContain(',winner,excluded_demo_ballot,excluded_operator_excluded,excluded_duplicate_ballot,');
    expect(tally.totals.excluded).toMatchObject({ operator_excluded: 3, duplicate_ballot: 0 });
    expect(exclusions.filter((e) => e.verdict.reason === 'operator_excluded').map((e) => [e.ballotId, e.verdict.vote.nomineeId, e.verdict.detail])).toEqual([
      [ids[0], 'c-2', 'excluded by an operator: sent from a shared clinic account (audit audit-1)'],
      [ids[0], 'c-3', 'excluded by an operator: sent from a shared clinic account (audit audit-1)'],
      [ids[0], 'd-1', 'excluded by an operator: sent from a shared clinic account (audit audit-1)'],
    ]);
    expect(tally.totals.ballotsCounted).toBe(7);
  });

  test('the column is there with or without exclusions, and an empty map changes no count', async () => {
    const plain = await csv({});
    const hooked = await csv({}, undefined, { excludedBallots: new Map() });
    const cells = (text: string) =>
      text
        .trim()
        .split('\r\n')
        .map((line) => line.split(','));
    const column = cells(hooked.text)[0].indexOf('excluded_operator_excluded');
    expect(column).toBe(10);
    expect(
      cells(hooked.text)
        .slice(1)
        .map((row) => row[column]),
    ).toEqual(
      cells(plain.text)
        .slice(1)
        .map(() => '0'),
    );
    expect(cells(hooked.text)).toEqual(cells(plain.text));
  });
});

describe('reading ballots as rows', () => {
  test('a nominee id holding the separator is read as one id, which no list has', async () => {
    const other = await scratchDatabase();
    try {
      await storeBallots(other.db, [
        { at: '2030-01-02T09:00:00Z', answers: { 'name-first': 'Uma', 'name-last': 'Vance' }, votes: { Cardiology: ['c-2', 'zz\u001fc-3', 'c-3'] } },
      ]);
      const exclusions: Exclusion[] = [];
      const tally = await tallySurvey(other.db, { ...base, onExclusion: (e) => void exclusions.push(e) });
      expect(
        tally.rows
          .filter((row) => row.counted)
          .map((row) => row.nomineeId)
          .sort(),
      ).toEqual(['c-2', 'c-3']);
      expect(exclusions.map((e) => [e.verdict.reason, e.verdict.vote.nomineeId])).toEqual([['not_on_list', 'zzc-3']]);
    } finally {
      await other.close();
    }
  });

  test('nominations that do not split into fours are a fault, not a ballot', async () => {
    const { nominationRows } = await import('../../../src/results/ballots/ballot-reader.ts');
    expect(nominationRows('Medicine\u001fCardiology\u001f1\u001fc-2')).toEqual([['Medicine', 'Cardiology', 1, 'c-2']]);
    expect(nominationRows(null)).toEqual([]);
    expect(() => nominationRows('Medi\u001fcine\u001fCardiology\u001f1\u001fc-2')).toThrow(/cannot be read/);
  });
});
