import { describe, expect, test } from 'vitest';
import { repeatOnBallot, voteCount, type NamedVote } from '../../../src/survey/ballots/votes.ts';
import type { BallotValue } from '../../../src/survey/ballots/ballot-input.ts';

type Values = Array<BallotValue | undefined>;

describe('voteCount: filled slots plus named write-ins, as the vote requirement counts them', () => {
  test.each<[string, Values, Values, number]>([
    ['an empty ballot', [], [], 0],
    ['slots only', ['n1', 'n2'], [], 2],
    ['write-ins only', [], ['Dr. Wu'], 1],
    ['both add up', ['n1'], ['Dr. Wu', 'Dr. Ng'], 3],
    ['a slot left empty is no vote', ['n1', '', undefined], [], 1],
    ['a slot of only spaces is no vote', ['  \t'], [], 0],
    ['a write-in row without a name is no vote', ['n1'], ['', '   ', 'Dr. Wu'], 2],
    ['the same nominee in two slots counts twice: the count is of fields, not of nominees', ['n1', 'n1'], [], 2],
    ['a part sent twice counts once, as one field', [['n1', 'n2']], [], 1],
  ])('%s', (_name, nominees, writeIns, expected) => {
    expect(voteCount(nominees, writeIns)).toBe(expected);
  });

  test('takes any iterable: the page passes its stores, the struct its slots', () => {
    expect(voteCount(new Set(['n1', 'n2']).values(), new Map([[1, 'Dr. Wu']]).values())).toBe(3);
  });
});

describe('repeatOnBallot: a nominee once per sub-category of a ballot', () => {
  const vote = (subcategory: string, nomineeId: string, group = 'Medicine'): NamedVote => ({ group, subcategory, nomineeId });

  test.each<[string, NamedVote[], number, number]>([
    ['the first vote repeats nothing', [vote('Cardiology', 'n1')], 0, -1],
    ['the same nominee again in the sub-category repeats the first', [vote('Cardiology', 'n1'), vote('Cardiology', 'n1')], 1, 0],
    ['another nominee in the sub-category is no repeat', [vote('Cardiology', 'n1'), vote('Cardiology', 'n2')], 1, -1],
    ['the same nominee in another sub-category is no repeat', [vote('Cardiology', 'n1'), vote('Dermatology', 'n1')], 1, -1],
    ['a sub-category of the same name in another group is another sub-category', [vote('General', 'n1', 'Medicine'), vote('General', 'n1', 'Surgery')], 1, -1],
    ['it names the earliest vote repeated', [vote('Cardiology', 'n1'), vote('Cardiology', 'n2'), vote('Cardiology', 'n1'), vote('Cardiology', 'n1')], 3, 0],
    ['only earlier votes count: the first of two is not the repeat', [vote('Cardiology', 'n1'), vote('Cardiology', 'n1')], 0, -1],
    ['votes between do not hide the repeat', [vote('Cardiology', 'n1'), vote('Dermatology', 'n1'), vote('Cardiology', 'n1')], 2, 0],
  ])('%s', (_name, votes, i, expected) => {
    expect(repeatOnBallot(votes, i)).toBe(expected);
  });

  test('reads any vote that names a sub-category and a nominee: a tally vote with its slot, a page pick with its slot name', () => {
    const votes = [
      { group: 'Medicine', subcategory: 'Cardiology', nomineeId: 'n1', name: 'nominations[Medicine][Cardiology][2]' },
      { group: 'Medicine', subcategory: 'Cardiology', nomineeId: 'n1', name: 'nominations[Medicine][Cardiology][1]' },
    ];
    expect(votes[repeatOnBallot(votes, 1)].name).toBe('nominations[Medicine][Cardiology][2]');
  });
});
