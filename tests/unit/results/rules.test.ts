import { describe, expect, test } from 'vitest';
import { judgeBallot, selfMatch, type BallotToJudge, type NomineeFacts, type Vote } from '../../../src/results/tally/rules.ts';
import { licenseKey, sameName } from '../../../src/results/tally/identity-keys.ts';
import { nameKey, nameWords } from '../../../src/survey/nominees/name-key.ts';
import { voterFields } from '../../../src/survey/people/voter.ts';
import { voterOf, type Voter } from '../../../src/results/tally/voter.ts';

// Hand-built ballots against a small list: Northgate Clinic is the voter's practice.
const NOMINEES: Record<string, NomineeFacts> = {
  'c-1': { name: 'Ana Ferreira', practice: 'Northgate Clinic', license: 'MD-1001' },
  'c-2': { name: 'Bo Lindqvist', practice: 'Riverside Heart' },
  'c-3': { name: 'Chen Wei', practice: 'Lakeside Group' },
  'c-4': { name: 'Dana Kowalski', practice: 'northgate  clinic' },
  'c-5': { name: 'Eli Navarro' },
  'd-1': { name: 'Émile Roux', practice: 'Skin Partners' },
};
const lookup = (id: string) => NOMINEES[id];

const ana = (changes: Partial<Voter> = {}): Voter => ({
  nameWords: ['ana', 'ferreira'],
  name: 'Ana Ferreira',
  email: 'ana@example.org',
  license: 'MD1001',
  practice: 'Northgate Clinic',
  ...changes,
});
const vote = (nomineeId: string, subcategory = 'Cardiology'): Vote => ({ group: 'Medicine', subcategory, nomineeId, source: 'slot' });
const ballot = (votes: Vote[], changes: Partial<BallotToJudge> = {}): BallotToJudge => ({ id: 'b1', demo: false, voter: ana(), votes, ...changes });
const verdicts = (b: BallotToJudge) => judgeBallot(b, lookup).map((v) => `${v.vote.nomineeId}:${v.counted ? 'counted' : v.reason}`);

describe('self-votes (docs/spec.md, "Counting": voting for yourself requires at least two candidates outside your practice in that category)', () => {
  test.each([
    ['two others outside the practice: the self-vote counts', ['c-1', 'c-2', 'c-3'], ['c-1:counted', 'c-2:counted', 'c-3:counted']],
    ['one other outside: the self-vote is excluded, the others count', ['c-1', 'c-2'], ['c-1:self_vote', 'c-2:counted']],
    ['a colleague of the same practice does not count as outside (spelling aside)', ['c-1', 'c-2', 'c-4'], ['c-1:self_vote', 'c-2:counted', 'c-4:counted']],
    ['a nominee whose practice is unknown does not count as outside', ['c-1', 'c-2', 'c-5'], ['c-1:self_vote', 'c-2:counted', 'c-5:counted']],
    ['alone: excluded', ['c-1'], ['c-1:self_vote']],
  ])('%s', (_, ids, expected) => {
    expect(verdicts(ballot(ids.map((id) => vote(id))))).toEqual(expected);
  });

  test('nominees outside the practice in another sub-category do not help', () => {
    expect(verdicts(ballot([vote('c-1'), vote('c-2'), vote('d-1', 'Dermatology')]))).toEqual(['c-1:self_vote', 'c-2:counted', 'd-1:counted']);
  });

  test('a reconciled write-in outside the practice counts like a slot', () => {
    const writeIn: Vote = { ...vote('c-3'), source: 'write-in', writeIn: 'Dr Chen Wei' };
    expect(verdicts(ballot([vote('c-1'), vote('c-2'), writeIn]))).toEqual(['c-1:counted', 'c-2:counted', 'c-3:counted']);
  });

  test('the explanation says how the voter was recognised and what was missing', () => {
    const [self] = judgeBallot(ballot([vote('c-1'), vote('c-2')]), lookup);
    expect(self.detail).toBe(
      "the voter's name and license are the nominee's; the ballot names 1 other nominee outside Northgate Clinic in Cardiology, the rule asks for 2",
    );
    const [byId] = judgeBallot(ballot([vote('c-1')], { voter: ana({ nomineeId: 'c-1' }) }), lookup);
    expect(byId.detail).toMatch(/^the voter's personal link names nominee c-1; the ballot names 0 other nominees/);
  });

  test('by nominee id when the personal link carries one: a namesake is then not the voter', () => {
    expect(selfMatch(ana({ nomineeId: 'c-9' }), 'c-1', NOMINEES['c-1'])).toBeUndefined();
    expect(selfMatch(ana({ nomineeId: 'c-1', nameWords: ['someone', 'else'] }), 'c-1', NOMINEES['c-1'])).toBeDefined();
  });

  test('by name and license otherwise: a license that disagrees is another person', () => {
    expect(selfMatch(ana({ license: 'MD9999' }), 'c-1', NOMINEES['c-1'])).toBeUndefined();
    expect(selfMatch(ana(), 'c-1', NOMINEES['c-1'])).toBe("the voter's name and license are the nominee's");
    expect(selfMatch(ana({ license: '' }), 'c-1', NOMINEES['c-1'])).toBe("the voter's name is the nominee's (no license to compare)");
    expect(selfMatch(ana({ nameWords: ['ana', 'maria', 'ferreira'] }), 'c-1', NOMINEES['c-1'])).toBeDefined();
    expect(selfMatch(ana({ nameWords: ['anabel', 'ferreira'] }), 'c-1', NOMINEES['c-1'])).toBeUndefined();
  });
});

describe('the other rules', () => {
  test('a demo ballot counts nothing', () => {
    expect(verdicts(ballot([vote('c-2'), vote('c-3')], { demo: true }))).toEqual(['c-2:demo_ballot', 'c-3:demo_ballot']);
  });

  test('a duplicate ballot counts nothing, and says which ballot stands', () => {
    const judged = judgeBallot(ballot([vote('c-2')], { duplicateOf: { ballotId: 'b0', by: 'email' } }), lookup);
    expect(judged).toEqual([{ vote: vote('c-2'), counted: false, reason: 'duplicate_ballot', detail: 'same email as ballot b0, which stands' }]);
  });

  test('an id the list lacks is not counted', () => {
    expect(verdicts(ballot([vote('zz-9'), vote('c-2')]))).toEqual(['zz-9:not_on_list', 'c-2:counted']);
  });

  test('one nominee twice in a sub-category counts once; in two sub-categories, twice', () => {
    const again: Vote = { ...vote('c-2'), source: 'write-in', writeIn: 'Bo L.' };
    expect(verdicts(ballot([vote('c-2'), again, vote('c-2', 'Dermatology')]))).toEqual(['c-2:counted', 'c-2:repeat_on_ballot', 'c-2:counted']);
  });
});

describe('names, licenses and voter fields', () => {
  test('names fold case, accents, titles, credentials and punctuation', () => {
    expect(nameWords('Dr. José Álvarez-Ruiz, MD')).toEqual(['jose', 'alvarez', 'ruiz']);
    expect(nameKey("  dr  SIOBHÁN o'brien ")).toBe('siobhan obrien');
    expect(sameName(['evelyn', 'marguerite', 'castellano', 'whitby'], ['evelyn', 'castellano', 'whitby'])).toBe(true);
    expect(sameName(['jane', 'q', 'roe'], ['jane', 'quinn', 'roe'])).toBe(true);
    expect(sameName(['jane', 'roe'], ['john', 'roe'])).toBe(false);
  });

  test('licenses compare by letters and digits', () => {
    expect(licenseKey(' md 418-203 ')).toBe('MD418203');
  });

  test('voter fields come from the layout, with the prepopulated nominee id', () => {
    const layout = [
      [
        {
          name: 'name',
          type: 'nested' as const,
          fields: [
            { name: 'name-first', type: 'text' as const },
            { name: 'name-last', type: 'text' as const },
          ],
        },
      ],
      [
        { name: 'medical-license', type: 'text' as const },
        { name: 'mail', type: 'email' as const },
        { name: 'medical-practice', type: 'text' as const },
      ],
    ];
    const fields = voterFields({ layout, workplace_field: 'medical-practice', license_field: 'medical-license', name_fields: undefined });
    expect(fields).toEqual({ email: 'mail', license: 'medical-license', practice: 'medical-practice', name: ['name-first', 'name-last'] });
    const answers = new Map([
      ['name-first', 'Ana'],
      ['name-last', 'Ferreira'],
      ['mail', ' Ana@Example.org '],
      ['medical-license', 'md-1001'],
    ]);
    expect(voterOf(fields, answers, { nominee_id: 'c-1' })).toEqual({
      nomineeId: 'c-1',
      nameWords: ['ana', 'ferreira'],
      name: 'Ana Ferreira',
      email: 'ana@example.org',
      license: 'MD1001',
      practice: '',
    });
  });
});

describe('the tally-only data stays private', () => {
  test("a nominee's license never reaches a search hit", async () => {
    const { toHit } = await import('../../../src/server/search/nominee-engine.ts');
    expect(toHit({ id: 'c-1', name: 'Ana Ferreira', practice: 'Northgate Clinic', license: 'MD-1001' })).toEqual({
      objectID: 'c-1',
      id: 'c-1',
      name: 'Ana Ferreira',
      practice: 'Northgate Clinic',
    });
  });

  test('a prepopulated person may carry nominee_id, which is no field of the layout', async () => {
    const { peerCheck } = await import('../../support/results-db.ts');
    expect(peerCheck().prepopulation['sec-ana-R7kw2Pq']).toMatchObject({ nominee_id: 'c-1', 'name-first': 'Ana' });
  });
});
