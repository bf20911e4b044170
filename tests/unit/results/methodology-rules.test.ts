import { describe, expect, test } from 'vitest';
import { create } from 'superstruct';
import { TallyConfig } from '../../../src/survey/config/tally.struct.ts';
import { DEFAULT_TALLY, judgeBallot, reasonsOf, flagsOf, type BallotToJudge, type NomineeFacts, type Vote } from '../../../src/results/tally/rules.ts';
import type { Voter } from '../../../src/results/tally/voter.ts';

// Each rule of the `tally:` block, setting by setting, on hand-built ballots. The voter, Ana,
// works at Northgate Clinic in Eastside; c-1 is Ana herself.
const NOMINEES: Record<string, NomineeFacts> = {
  'c-1': { name: 'Ana Ferreira', practice: 'Northgate Clinic', license: 'MD-1001', specialty: 'Cardiology', city: 'Eastside' },
  'c-2': { name: 'Bo Lindqvist', practice: 'Riverside Heart', specialty: 'Cardiology', city: 'Eastside' },
  'c-3': { name: 'Chen Wei', practice: 'Lakeside Group', specialty: 'cardiology ', city: 'Westside' },
  'c-4': { name: 'Dana Kowalski', practice: 'Northgate Clinic', specialty: 'Cardiology', city: 'Eastside' },
  'c-5': { name: 'Eli Navarro', specialty: 'Dermatology' },
  'c-6': { name: 'Fay Okafor', practice: 'Harbor Medical' },
};
const lookup = (id: string) => NOMINEES[id];
const ana: Voter = {
  nameWords: ['ana', 'ferreira'],
  name: 'Ana Ferreira',
  email: 'ana@example.org',
  license: 'MD1001',
  practice: 'Northgate Clinic',
  region: 'Eastside',
};
const vote = (nomineeId: string, slot = 1): Vote => ({ group: 'Medicine', subcategory: 'Cardiology', nomineeId, source: 'slot', slot });
const ballot = (ids: string[], changes: Partial<BallotToJudge> = {}): BallotToJudge => ({
  id: 'b1',
  demo: false,
  voter: ana,
  votes: ids.map((id, i) => vote(id, i + 1)),
  ...changes,
});
const rules = (block: unknown) => create(block, TallyConfig);
const judged = (ids: string[], block: unknown, changes: Partial<BallotToJudge> = {}) =>
  judgeBallot(ballot(ids, changes), lookup, rules(block)).map((v) => `${v.vote.nomineeId}:${v.counted ? 'counted' : v.reason}${v.flag ? `+${v.flag}` : ''}`);

describe('the defaults are the sample rules', () => {
  test('an empty block resolves to the documented defaults', () => {
    expect(rules({})).toEqual({
      self_vote: { rule: 'outside_votes', outside_votes: 2 },
      same_practice: 'count',
      subcategory_match: { rule: 'off', nominee_field: 'specialty' },
      region_match: { rule: 'off', nominee_field: 'city' },
      points: [1],
      duplicates: ['secret', 'email', 'license'],
      min_votes: 0,
      min_share: 0,
      publish: { ties: 'include' },
    });
    expect(DEFAULT_TALLY).toEqual(rules({}));
    expect(reasonsOf(DEFAULT_TALLY)).toEqual(['demo_ballot', 'operator_excluded', 'duplicate_ballot', 'not_on_list', 'repeat_on_ballot', 'self_vote']);
  });
});

describe('self_vote', () => {
  test.each([
    [
      'outside_votes 2, two outsiders: counted',
      { rule: 'outside_votes', outside_votes: 2 },
      ['c-1', 'c-2', 'c-3'],
      ['c-1:counted', 'c-2:counted', 'c-3:counted'],
    ],
    ['outside_votes 2, one outsider: excluded', { rule: 'outside_votes', outside_votes: 2 }, ['c-1', 'c-2'], ['c-1:self_vote', 'c-2:counted']],
    ['outside_votes 1, one outsider: counted', { rule: 'outside_votes', outside_votes: 1 }, ['c-1', 'c-2'], ['c-1:counted', 'c-2:counted']],
    ['outside_votes 1, a colleague only: excluded', { rule: 'outside_votes', outside_votes: 1 }, ['c-1', 'c-4'], ['c-1:self_vote', 'c-4:counted']],
    ['exclude, however many outsiders', { rule: 'exclude' }, ['c-1', 'c-2', 'c-3'], ['c-1:self_vote', 'c-2:counted', 'c-3:counted']],
  ])('%s', (_, selfVote, ids, expected) => expect(judged(ids, { self_vote: selfVote })).toEqual(expected));

  test('the explanation names the rule in force', () => {
    expect(judgeBallot(ballot(['c-1', 'c-2']), lookup, rules({ self_vote: { rule: 'exclude' } }))[0].detail).toBe(
      "the voter's name and license are the nominee's; the methodology counts no self-vote",
    );
    expect(judgeBallot(ballot(['c-1']), lookup, rules({ self_vote: { outside_votes: 3 } }))[0].detail).toMatch(
      /the ballot names 0 other nominees outside Northgate Clinic in Cardiology, the rule asks for 3$/,
    );
  });
});

describe('same_practice', () => {
  test.each([
    ['count: a colleague counts', 'count', ['c-4'], ['c-4:counted']],
    ['exclude: a colleague never counts', 'exclude', ['c-4', 'c-2'], ['c-4:same_practice', 'c-2:counted']],
    ['outside_match: a colleague alone is excluded', 'outside_match', ['c-4'], ['c-4:same_practice']],
    ['outside_match: beside an outsider it counts', 'outside_match', ['c-4', 'c-2'], ['c-4:counted', 'c-2:counted']],
    ['outside_match: a nominee of unknown practice is no outside match', 'outside_match', ['c-4', 'c-5'], ['c-4:same_practice', 'c-5:counted']],
  ])('%s', (_, mode, ids, expected) => expect(judged(ids, { same_practice: mode })).toEqual(expected));

  test('a voter who gave no practice has no colleagues', () => {
    expect(judged(['c-4'], { same_practice: 'exclude' }, { voter: { ...ana, practice: '' } })).toEqual(['c-4:counted']);
  });

  test('the self-vote is judged by its own rule, not as a colleague', () => {
    expect(judged(['c-1', 'c-2', 'c-3'], { same_practice: 'exclude' })).toEqual(['c-1:counted', 'c-2:counted', 'c-3:counted']);
  });

  test('the explanation says which practice', () => {
    const [verdict] = judgeBallot(ballot(['c-4']), lookup, rules({ same_practice: 'outside_match' }));
    expect(verdict.detail).toBe("the nominee works at the voter's practice, Northgate Clinic, and the ballot names no nominee outside it in Cardiology");
  });
});

describe('subcategory_match and region_match', () => {
  test.each([
    ['subcategory off', { subcategory_match: { rule: 'off' } }, ['c-5', 'c-3'], ['c-5:counted', 'c-3:counted']],
    [
      'subcategory exclude (case and spaces aside; unknown passes)',
      { subcategory_match: { rule: 'exclude' } },
      ['c-5', 'c-3', 'c-6'],
      ['c-5:outside_subcategory', 'c-3:counted', 'c-6:counted'],
    ],
    ['subcategory flag: counted, marked', { subcategory_match: { rule: 'flag' } }, ['c-5', 'c-3'], ['c-5:counted+outside_subcategory', 'c-3:counted']],
    [
      'region exclude',
      { region_match: { rule: 'exclude', voter_field: 'region' } },
      ['c-2', 'c-3', 'c-5'],
      ['c-2:counted', 'c-3:outside_region', 'c-5:counted'],
    ],
    ['region flag', { region_match: { rule: 'flag', voter_field: 'region' } }, ['c-3'], ['c-3:counted+outside_region']],
    ['region by another column', { region_match: { rule: 'exclude', voter_field: 'region', nominee_field: 'practice' } }, ['c-2'], ['c-2:outside_region']],
  ])('%s', (_, block, ids, expected) => expect(judged(ids, block)).toEqual(expected));

  test('an excluded vote does not help a self-vote; the explanation names the column', () => {
    const verdicts = judgeBallot(ballot(['c-1', 'c-2', 'c-3']), lookup, rules({ region_match: { rule: 'exclude', voter_field: 'region' } }));
    expect(verdicts.map((v) => v.reason ?? 'counted')).toEqual(['self_vote', 'counted', 'outside_region']);
    expect(verdicts[2].detail).toBe("the nominee's city is Westside, the voter's region Eastside");
  });

  test('a rule turned on adds its reason; a flag rule is listed as a flag', () => {
    const block = rules({ subcategory_match: { rule: 'flag' }, region_match: { rule: 'exclude', voter_field: 'region' }, same_practice: 'exclude' });
    expect(reasonsOf(block)).toEqual([
      'demo_ballot',
      'operator_excluded',
      'duplicate_ballot',
      'not_on_list',
      'repeat_on_ballot',
      'outside_region',
      'self_vote',
      'same_practice',
    ]);
    expect(flagsOf(block)).toEqual(['outside_subcategory']);
  });
});

describe('operator exclusions', () => {
  test("every vote of a ballot an operator excluded is counted under operator_excluded with the operator's why", () => {
    const verdicts = judgeBallot(ballot(['c-2', 'c-3'], { excluded: { reason: 'one clinic sent 40 ballots in a minute', auditId: 'a-17' } }), lookup);
    expect(verdicts.map((v) => [v.reason, v.detail])).toEqual([
      ['operator_excluded', 'excluded by an operator: one clinic sent 40 ballots in a minute (audit a-17)'],
      ['operator_excluded', 'excluded by an operator: one clinic sent 40 ballots in a minute (audit a-17)'],
    ]);
  });

  test('a demo ballot stays a demo ballot', () => {
    expect(judged(['c-2'], {}, { demo: true, excluded: { reason: 'x', auditId: 'a-1' } })).toEqual(['c-2:demo_ballot']);
  });
});
