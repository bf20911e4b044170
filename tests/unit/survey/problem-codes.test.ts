import { expect, test } from 'vitest';
import { create, validate } from 'superstruct';
import { SurveyConfig } from '../../../src/survey/config/config.struct.ts';
import { ballotStruct } from '../../../src/survey/ballots/ballot.struct.ts';
import { toCodedProblems, toProblems } from '../../../src/survey/errors.ts';
import { isVoteRequirement, voteRequirementMessage } from '../../../src/survey/ballots/votes.ts';

const config = create(
  {
    project_id: 'codes',
    vote_requirement: 2,
    categories: { Medicine: ['Cardiology'] },
    layout: [[{ name: 'full-name', type: 'text', validation: { required: true } }], [{ name: 'nomination', type: 'nomination' }]],
  },
  SurveyConfig,
);

const failure = () => {
  const [error] = validate({ 'nominations[Medicine][Cardiology][1]': 'n1', affirm: 'on' }, ballotStruct(config));
  if (!error) throw new Error('expected the ballot to fail');
  return error;
};

test('the page tells the vote requirement apart by its code, not by its words', () => {
  const problems = toCodedProblems(failure());
  const requirement = problems.filter(isVoteRequirement);
  expect(requirement).toEqual([{ path: 'nomination', message: voteRequirementMessage(2), code: 'vote-requirement' }]);
  expect(problems.filter((problem) => !isVoteRequirement(problem))).toEqual([{ path: 'full-name', message: 'Full name is required.', code: 'required' }]);
});

test('the API’s problems keep their shape: a path and a message, no code', () => {
  expect(toProblems(failure())).toEqual([
    { path: 'nomination', message: voteRequirementMessage(2) },
    { path: 'full-name', message: 'Full name is required.' },
  ]);
});

test('a problem without a code, as the API sends them, is not the vote requirement', () => {
  expect(isVoteRequirement({ path: 'nomination', message: voteRequirementMessage(2) } as { code?: string })).toBe(false);
});
