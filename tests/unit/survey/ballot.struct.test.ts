import { describe, expect, test } from 'vitest';
import { create } from 'superstruct';
import { SurveyConfig } from '../../../src/survey/config/config.struct.ts';
import { ballotStruct, validateBallot, type BallotContext } from '../../../src/survey/ballots/ballot.struct.ts';
import { voteRequirementMessage, voteCount } from '../../../src/survey/ballots/votes.ts';
import { ballotParts } from '../../../src/survey/ballots/ballot-parts.ts';
import type { BallotInput } from '../../../src/survey/ballots/ballot-input.ts';
import { formDataToBallot, isBlank } from '../../../src/survey/ballots/ballot-input.ts';

const config = create(
  {
    project_id: 'unit',
    votes_per_category: 2,
    vote_requirement: 1,
    write_in_limit: 1,
    categories: { Medicine: ['Cardiology', 'Dermatology'] },
    layout: [
      [
        { name: 'full-name', type: 'text', validation: { required: true } },
        { name: 'email', type: 'email' },
        { name: 'role', type: 'select', options: ['A', 'B'], validation: { required: true, message: 'Pick a role.' } },
        { name: 'tags', type: 'checkbox', options: ['X', 'Other'] },
        { name: 'cv', type: 'file', validation: { maxFileSize: 100 } },
      ],
      [{ name: 'nomination', type: 'nomination' }],
      [{ name: 'faces', type: 'faces' }],
    ],
    faces: ['Cardiology', { title: 'Dermatology', taken: true }],
  },
  SurveyConfig,
);

const valid: BallotInput = { 'full-name': 'Ada', role: 'A', 'nominations[Medicine][Cardiology][1]': 'n1', affirm: 'on' };
const check = (changes: Record<string, unknown>, context?: BallotContext) => {
  const input = { ...valid, ...changes } as Record<string, unknown>;
  for (const key of Object.keys(input)) if (input[key] === undefined) delete input[key];
  return validateBallot(ballotStruct(config, context), input as BallotInput);
};
const file = (size: number, type = 'application/pdf') => ({ name: 'f.pdf', size, type });

test('a valid ballot has no problems', () => {
  expect(check({})).toEqual([]);
});

describe.each([
  ['required: missing', { 'full-name': undefined }, 'full-name', 'Full name is required.'],
  ['required: only spaces', { 'full-name': '  \t' }, 'full-name', 'Full name is required.'],
  ['required: empty list', { 'full-name': [] }, 'full-name', 'expected a text, got a list'],
  ['email: not an address', { email: 'a@b' }, 'email', 'Email is not valid. Enter an address like name@example.org.'],
  ['select: not an option, with the field’s own message', { role: 'C' }, 'role', 'Pick a role.'],
  ['checkbox: an option it does not have', { tags: ['X', 'Y'] }, 'tags', 'Tags must be one of the options shown.'],
  ['file: larger than maxFileSize', { cv: file(101) }, 'cv', 'Cv must be 100 bytes or smaller.'],
  ['file: a type it does not accept', { cv: file(10, 'text/html') }, 'cv', 'Cv must be a PDF, PNG or JPEG file.'],
  [
    'nomination slot past votes_per_category',
    { 'nominations[Medicine][Cardiology][3]': 'n' },
    'nominations[Medicine][Cardiology][3]',
    'is not a field of this ballot.',
  ],
  [
    'duplicate nominee in a sub-category',
    { 'nominations[Medicine][Cardiology][2]': 'n1' },
    'nominations[Medicine][Cardiology][2]',
    'This nominee is already named in this category.',
  ],
  ['vote requirement', { 'nominations[Medicine][Cardiology][1]': ' ' }, 'nomination', voteRequirementMessage(1)],
  [
    'write-in past the limit',
    { 'writeins[0][name]': 'A', 'writeins[0][category]': 'Medicine / Cardiology', 'writeins[1][name]': 'B', 'writeins[1][category]': 'Medicine / Cardiology' },
    'writeins[1][name]',
    'You can add at most 1 write-in.',
  ],
  ['a tile the survey marks taken', { faces: 'dermatology' }, 'faces', 'Reserve Your Faces Specialty: this tile is already taken; choose another.'],
  ['a tile that does not exist', { faces: 'podiatry' }, 'faces', 'Reserve Your Faces Specialty: choose one of the tiles shown.'],
  ['affirmation missing', { affirm: undefined }, 'affirm', 'Tick “I Affirm” to confirm the statements above.'],
  ['an unknown field', { admin: '1' }, 'admin', 'is not a field of this ballot.'],
])('%s', (_name, changes, path, message) => {
  test(`is reported at ${path}`, () => {
    expect(check(changes)).toContainEqual({ path, message });
  });
});

test('email passes an empty value; "Other" carries its own text', () => {
  expect(check({ email: '', tags: ['Other'], 'tags[other-answer]': 'Chess' })).toEqual([]);
});

test('every problem is reported at once', () => {
  expect(
    check({ 'full-name': '', email: 'x', role: 'Z', admin: '1' })
      .map((p) => p.path)
      .sort(),
  ).toEqual(['admin', 'email', 'full-name', 'role']);
});

test('the vote requirement message says "name" for one and "names" for more', () => {
  expect(voteRequirementMessage(1)).toBe('You must fill out at least 1 name to submit this form.');
  expect(voteRequirementMessage(3)).toBe('You must fill out at least 3 names to submit this form.');
});

describe('context', () => {
  test('the browser passes the look-up’s taken tiles', () => {
    expect(check({ faces: 'cardiology' }, { taken: { faces: ['cardiology'] } })).toEqual([
      { path: 'faces', message: 'Reserve Your Faces Specialty: this tile is already taken; choose another.' },
    ]);
  });

  test('isKnownNominee is the seam for the nominee list; without it any non-empty id passes', () => {
    expect(check({ 'nominations[Medicine][Cardiology][1]': 'anything' })).toEqual([]);
    expect(check({}, { isKnownNominee: (id) => id === 'n2' })).toEqual([
      { path: 'nominations[Medicine][Cardiology][1]', message: 'Choose a nominee from the search suggestions.' },
    ]);
  });
});

test('ballotParts takes a checked ballot apart and counts its votes', () => {
  const input = {
    ...valid,
    tags: ['X', 'Other'],
    'tags[other-answer]': 'Chess',
    'writeins[0][name]': 'Dr. Wu',
    'writeins[0][category]': 'Medicine / Dermatology',
    faces: 'cardiology',
  };
  const parts = ballotParts(config, input);
  expect(parts.answers).toEqual([
    { field: 'full-name', position: 0, value: 'Ada' },
    { field: 'role', position: 0, value: 'A' },
    { field: 'tags', position: 0, value: 'X' },
    { field: 'tags', position: 1, value: 'Other' },
    { field: 'tags[other-answer]', position: 0, value: 'Chess' },
  ]);
  expect(parts.nominations).toEqual([{ group: 'Medicine', subcategory: 'Cardiology', slot: 1, nomineeId: 'n1' }]);
  expect(parts.writeIns).toEqual([{ position: 0, name: 'Dr. Wu', group: 'Medicine', subcategory: 'Dermatology' }]);
  expect(parts.reservations).toEqual([{ field: 'faces', kind: 'faces', tile: 'cardiology' }]);
  expect(
    voteCount(
      parts.nominations.map((n) => n.nomineeId),
      parts.writeIns.map((w) => w.name),
    ),
  ).toBe(2);
});

test('formDataToBallot keeps repeated names as lists and treats __proto__ as a plain key', () => {
  const form = new FormData();
  form.append('tags', 'X');
  form.append('tags', 'Other');
  form.append('__proto__', 'x');
  const ballot = formDataToBallot(form);
  expect(ballot.tags).toEqual(['X', 'Other']);
  expect(Object.keys(ballot)).toContain('__proto__');
  expect(({} as Record<string, unknown>).x).toBeUndefined();
});

test.each([
  [undefined, true],
  [null, true],
  [false, true],
  [[], true],
  ['  ', true],
  [{ name: '', size: 0, type: 'application/octet-stream' }, true],
  ['a', false],
  [['a'], false],
])('isBlank(%j) is %s', (value, blank) => {
  expect(isBlank(value)).toBe(blank);
});
