import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../../../src/server/db/schema.ts';
import { tallySurvey, type Exclusion } from '../../../src/results/tally/tally.ts';
import { parseThreshold, rankTally, tallyCsv, tallySummary } from '../../../src/results/tally/tally-report.ts';
import { identityKeys, scratchRegister, threadRegister } from '../../../src/results/tally/identities.ts';
import { peerCheck, scratchDatabase, storePeerCheck } from '../../support/results-db.ts';
import { PEER_CHECK_TALLY } from '../../support/peer-check-ballots.ts';

const { survey, nominees, prepopulation } = peerCheck();
let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let db: Kysely<Database>;
let ids: string[];

beforeAll(async () => {
  scratch = await scratchDatabase();
  db = scratch.db;
  ids = await storePeerCheck(db);
});
afterAll(() => scratch?.close());

describe('tally of hand-built ballots', () => {
  test('applies every rule: the exact CSV', async () => {
    const tally = await tallySurvey(db, { survey, nominees, prepopulation });
    expect(tallyCsv(rankTally(survey.config, tally, { top: 2 }))).toBe(PEER_CHECK_TALLY);
    expect(tally.totals).toEqual({
      ballots: 9,
      ballotsCounted: 6,
      ballotsReplaced: 0,
      votesCounted: 13,
      excluded: { demo_ballot: 1, operator_excluded: 0, duplicate_ballot: 2, not_on_list: 0, repeat_on_ballot: 1, self_vote: 2 },
      writeInsPending: 1,
      writeInsRejected: 1,
    });
  });

  test('explains every exclusion, ballot by ballot', async () => {
    const exclusions: Exclusion[] = [];
    await tallySurvey(db, { survey, nominees, prepopulation, onExclusion: (e) => void exclusions.push(e) });
    expect(exclusions.map((e) => [ids.indexOf(e.ballotId) + 1, e.verdict.vote.nomineeId, e.verdict.reason, e.verdict.detail])).toEqual([
      [2, 'c-4', 'duplicate_ballot', `same email as ballot ${ids[0]}, which stands`],
      [
        3,
        'c-1',
        'self_vote',
        "the voter's personal link names nominee c-1; the ballot names 1 other nominee outside Northgate Clinic in Cardiology, the rule asks for 2",
      ],
      [
        4,
        'd-3',
        'self_vote',
        "the voter's personal link names nominee d-3; the ballot names 1 other nominee outside Skin Partners in Dermatology, the rule asks for 2",
      ],
      [6, 'c-2', 'demo_ballot', undefined],
      [7, 'd-2', 'duplicate_ballot', `same license as ballot ${ids[0]}, which stands`],
      [9, 'c-2', 'repeat_on_ballot', 'c-2 is already named in Cardiology on this ballot'],
    ]);
  });

  test("an operator's exclusion takes out all of a ballot's votes with the why, and the same person's next ballot stands", async () => {
    const exclusions: Exclusion[] = [];
    const excludedBallots = new Map([[ids[0], { reason: 'one of 30 ballots from one address in a minute', auditId: 'audit-1' }]]);
    const tally = await tallySurvey(db, { survey, nominees, prepopulation, excludedBallots, onExclusion: (e) => void exclusions.push(e) });
    expect(exclusions.filter((e) => e.ballotId === ids[0]).map((e) => [e.verdict.vote.nomineeId, e.verdict.reason, e.verdict.detail])).toEqual(
      ['c-2', 'c-3', 'd-1'].map((id) => [id, 'operator_excluded', 'excluded by an operator: one of 30 ballots from one address in a minute (audit audit-1)']),
    );
    // Ballots 2 (by email) and 7 (by license) repeated ballot 1; with 1 out of the count, neither repeats anything counted.
    expect(exclusions.some((e) => e.ballotId === ids[1])).toBe(false);
    expect(exclusions.find((e) => e.ballotId === ids[6])?.verdict.reason).toBeUndefined();
    expect(tally.totals).toMatchObject({ ballotsCounted: 7, excluded: { operator_excluded: 3, duplicate_ballot: 0 } });
  });

  test('a ballot its voter replaced is never counted, the summary says how many were, and the later one stands alone', async () => {
    await db.updateTable('ballots').set({ replaced_by: ids[1], replaced_at: '2030-01-01T09:05:00.000Z' }).where('id', '=', ids[0]).execute();
    try {
      const exclusions: Exclusion[] = [];
      const tally = await tallySurvey(db, { survey, nominees, prepopulation, onExclusion: (e) => void exclusions.push(e) });
      expect(tally.totals).toMatchObject({ ballots: 8, ballotsReplaced: 1, ballotsCounted: 7 });
      // Ballots 2 and 7 repeated ballot 1 (email, license); with 1 replaced, they stand.
      expect(exclusions.some((e) => e.ballotId === ids[0] || e.ballotId === ids[1])).toBe(false);
      expect(tallySummary(rankTally(survey.config, tally), tally, 2)).toContain('Replaced by a later ballot of the same voter, not counted: 1 ballot.');
    } finally {
      await db.updateTable('ballots').set({ replaced_by: null, replaced_at: null }).where('id', '=', ids[0]).execute();
    }
  });

  test('pages of any size give the same tally: the rows, and the totals the duplicate register decides', async () => {
    const whole = await tallySurvey(db, { survey, nominees, prepopulation });
    const expected = tallyCsv(rankTally(survey.config, whole));
    for (const pageSize of [1, 2, 3, 1000]) {
      const paged = await tallySurvey(db, { survey, nominees, prepopulation, pageSize });
      expect(tallyCsv(rankTally(survey.config, paged))).toBe(expected);
      expect(paged.totals).toEqual(whole.totals);
    }
  });

  test('the summary shows the top N, the winners and every kind of exclusion in words', async () => {
    const tally = await tallySurvey(db, { survey, nominees, prepopulation });
    const summary = tallySummary(rankTally(survey.config, tally, { share: 0.5 }), tally, 2);
    expect(summary).toContain('Medicine / Cardiology: 9 votes counted, 4 excluded');
    expect(summary).toMatch(/1 {3}Bo Lindqvist \(c-2\) +5 +55\.6% {2}1 demo ballot, 1 repeat on ballot {2}\* winner/);
    expect(summary).not.toContain('Dana Kowalski'); // third in Cardiology, and only the top 2 are shown
    expect(summary).toContain(
      'Excluded, self vote: 2 votes: the voter nominated themselves without naming two other nominees outside their practice in that sub-category.',
    );
    expect(summary).toContain('Write-ins awaiting a decision, not counted yet: 1');
  });
});

describe('thresholds', () => {
  test.each([
    ['3', { top: 3 }],
    ['10%', { share: 0.1 }],
    ['12.5 %', { share: 0.125 }],
    ['0', undefined],
    ['150%', undefined],
    ['top', undefined],
  ])('%s', (text, expected) => expect(parseThreshold(text)).toEqual(expected));

  test('ties at the edge of the top N all win; a share is "at least"', () => {
    const row = (nomineeId: string, counted: number) => ({
      group: 'Medicine',
      subcategory: 'Cardiology',
      nomineeId,
      nomineeName: nomineeId,
      practice: '',
      counted,
      excluded: { demo_ballot: 0, operator_excluded: 0, duplicate_ballot: 0, not_on_list: 0, repeat_on_ballot: 0, self_vote: 0 },
    });
    const tally = { rows: [row('a', 5), row('b', 3), row('c', 3), row('d', 1)], totals: {} as never };
    const winners = (threshold: Parameters<typeof rankTally>[2]) =>
      rankTally(survey.config, tally, threshold)[0]
        .rows.filter((r) => r.winner)
        .map((r) => `${r.nomineeId}${r.rank}`);
    expect(winners({ top: 2 })).toEqual(['a1', 'b2', 'c2']);
    expect(winners({ share: 0.25 })).toEqual(['a1', 'b2', 'c2']);
    expect(winners(undefined)).toEqual([]);
  });
});

describe('duplicate register', () => {
  test('the first ballot stands; secret, email and license each tell; a chain is one person', async () => {
    const ballots = [
      { id: 'A', keys: identityKeys(null, 'x@example.org', 'L1') },
      { id: 'B', keys: identityKeys(null, 'y@example.org', 'L1') },
      { id: 'C', keys: identityKeys(null, 'y@example.org', 'L2') },
      { id: 'D', keys: identityKeys('s1', '', '') },
      { id: 'E', keys: identityKeys('s1', 'z@example.org', '') },
      { id: 'F', keys: identityKeys(null, '', '') },
      { id: 'G', keys: identityKeys(null, '', '') },
    ];
    const expected = [
      undefined,
      { ballotId: 'A', by: 'license' },
      { ballotId: 'B', by: 'email' },
      undefined,
      { ballotId: 'D', by: 'personal link' },
      undefined,
      undefined,
    ];
    // The register the tally's thread runs, in one page and across two calls (two pages), as the tally makes them.
    const onePage = scratchRegister();
    expect(await onePage.check(ballots)).toEqual(expected);
    onePage.close();
    const scratch = scratchRegister();
    expect([...(await scratch.check(ballots.slice(0, 3))), ...(await scratch.check(ballots.slice(3)))]).toEqual(expected);
    scratch.close();
    // In its thread: two pages checked before either answer is awaited, as the tally does, are answered in order;
    // so are pages of one ballot, each awaited before the next.
    const threaded = threadRegister();
    const pages = [threaded.check(ballots.slice(0, 3)), threaded.check(ballots.slice(3))];
    expect((await Promise.all(pages)).flat()).toEqual(expected);
    await threaded.close();
    const oneByOne = threadRegister();
    const answers = [];
    for (const ballot of ballots) answers.push(...(await oneByOne.check([ballot])));
    expect(answers).toEqual(expected);
    await oneByOne.close();
  });

  test('keys whose hashes collide are told apart by the keys themselves', async () => {
    // Every key hashes alike: each probe finds the others' records, and only the key itself decides.
    const colliding = scratchRegister({ hash: () => 7 });
    const ballots = [
      { id: 'A', keys: identityKeys(null, 'x@example.org', 'L1') },
      { id: 'B', keys: identityKeys(null, 'y@example.org', 'L2') },
      { id: 'C', keys: identityKeys('L1', 'é@example.org', '') },
      { id: 'D', keys: identityKeys(null, 'é@example.org', 'L3') },
      { id: 'E', keys: identityKeys(null, 'z@example.org', 'L2') },
    ];
    expect(await colliding.check(ballots)).toEqual([
      undefined,
      undefined,
      // The personal link "L1" is not the license "L1": keys of different kinds never match.
      undefined,
      { ballotId: 'C', by: 'email' },
      { ballotId: 'B', by: 'license' },
    ]);
    colliding.close();
  });

  test('a register of many keys answers as one of few: past its first table and its first batch of records', async () => {
    const register = scratchRegister();
    const many = Array.from({ length: 120_000 }, (_, i) => ({ id: `b${i}`, keys: identityKeys(null, `voter${i}@example.org`, `L${i}`) }));
    expect((await register.check(many)).every((found) => found === undefined)).toBe(true);
    // Repeats of the first, the middle and the last voters, by email and by license.
    const repeats = [
      { id: 'r1', keys: identityKeys(null, 'voter0@example.org', '') },
      { id: 'r2', keys: identityKeys(null, '', 'L60000') },
      { id: 'r3', keys: identityKeys(null, 'new@example.org', 'L119999') },
      { id: 'r4', keys: identityKeys(null, 'new@example.org', '') },
    ];
    expect(await register.check(repeats)).toEqual([
      { ballotId: 'b0', by: 'email' },
      { ballotId: 'b60000', by: 'license' },
      { ballotId: 'b119999', by: 'license' },
      { ballotId: 'r3', by: 'email' },
    ]);
    register.close();
  });
});
