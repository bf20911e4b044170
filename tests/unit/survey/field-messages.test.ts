import { describe, expect, test } from 'vitest';
import { create } from 'superstruct';
import { SurveyConfig } from '../../../src/survey/config/config.struct.ts';
import { ballotStruct, validateBallot } from '../../../src/survey/ballots/ballot.struct.ts';
import { fieldMessages } from '../../../src/survey/ballots/field-messages.ts';
import type { BallotInput } from '../../../src/survey/ballots/ballot-input.ts';

// Each field is named by its label; the name (`name-first`, `headshot`) never reaches the voter.
const config = create(
  {
    project_id: 'words',
    categories: { Medicine: ['Cardiology'] },
    vote_requirement: 0,
    layout: [
      [
        { name: 'name-first', type: 'text', label: 'First name', validation: { required: true } },
        { name: 'email', type: 'email', label: 'Email', validation: { required: true } },
        { name: 'comments', type: 'textarea', label: 'Comments', validation: { maxLength: 2000 } },
        { name: 'license', type: 'text', label: 'License number', validation: { minLength: 4, pattern: '^[A-Z]' } },
        { name: 'nickname', type: 'text' },
        { name: 'medical-credential', type: 'select', label: 'Medical credential', options: ['MD', 'DO'], validation: { required: true } },
        { name: 'certified', type: 'radio', label: 'Are you board certified?', options: ['Yes', 'No'], validation: { required: true } },
        { name: 'languages', type: 'checkbox', label: 'Languages', options: ['English', 'Other'], validation: { required: true } },
        { name: 'headshot', type: 'file', label: 'Headshot (optional)', validation: { maxFileSize: 2097152, accept: ['image/png', 'image/jpeg'] } },
        { name: 'motto', type: 'text', label: 'Motto', validation: { required: true, message: 'Tell us your motto, in a few words.' } },
      ],
      [{ name: 'faces', type: 'faces', label: 'Reserve Your Faces Specialty' }],
    ],
    faces: ['Cardiology'],
  },
  SurveyConfig,
);

const valid: BallotInput = {
  'name-first': 'Ada',
  email: 'ada@example.org',
  'medical-credential': 'MD',
  certified: 'Yes',
  languages: 'English',
  motto: 'Care first',
  affirm: 'on',
};
const messageAt = (changes: Record<string, unknown>, path: string) => {
  const input = { ...valid, ...changes } as Record<string, unknown>;
  for (const key of Object.keys(input)) if (input[key] === undefined) delete input[key];
  return validateBallot(ballotStruct(config), input as BallotInput).find((problem) => problem.path === path)?.message;
};
const png = (size: number, type = 'image/png') => ({ name: 'me.png', size, type });

describe.each([
  ['a required text left empty', { 'name-first': '' }, 'name-first', 'First name is required.'],
  ['an email that is not an address', { email: 'ada@' }, 'email', 'Email is not valid. Enter an address like name@example.org.'],
  ['a text over its maxLength', { comments: 'x'.repeat(2001) }, 'comments', 'Comments must be 2,000 characters or fewer.'],
  ['a text over the default limit', { nickname: 'x'.repeat(5001) }, 'nickname', 'Nickname must be 5,000 characters or fewer.'],
  ['a text under its minLength', { license: 'AB' }, 'license', 'License number must be at least 4 characters.'],
  ['a text that breaks its pattern', { license: 'abcd' }, 'license', 'License number is not in the expected format.'],
  ['a required select left empty', { 'medical-credential': undefined }, 'medical-credential', 'Medical credential is required.'],
  ['a select answer that is not an option', { 'medical-credential': 'RN' }, 'medical-credential', 'Medical credential must be one of the options shown.'],
  ['a required question left empty', { certified: undefined }, 'certified', 'The answer to “Are you board certified?” is required.'],
  ['a required checkbox with nothing ticked', { languages: undefined }, 'languages', 'Languages is required: tick at least one option.'],
  ['"Other" ticked without its text', { languages: ['Other'] }, 'languages[other-answer]', 'Languages: you ticked “Other”, so say what it is.'],
  ['a file over its size limit', { headshot: png(3 * 1024 * 1024) }, 'headshot', 'Headshot must be 2 MB or smaller.'],
  ['a file of a type it does not take', { headshot: png(10, 'application/pdf') }, 'headshot', 'Headshot must be a PNG or JPEG file.'],
  ['a field with its own message', { motto: '' }, 'motto', 'Tell us your motto, in a few words.'],
  [
    'a custom reservation over 300 characters',
    { 'faces[custom]': 'x'.repeat(301) },
    'faces[custom]',
    'Reserve Your Faces Specialty: your own text must be 300 characters or fewer.',
  ],
  ['the affirmation not ticked', { affirm: undefined }, 'affirm', 'Tick “I Affirm” to confirm the statements above.'],
])('%s', (_case, changes, path, message) => {
  test(`reads "${message}"`, () => {
    expect(messageAt(changes, path)).toBe(message);
  });
});

test('"Other" with its text passes', () => {
  expect(messageAt({ languages: ['English', 'Other'], 'languages[other-answer]': 'Greek' }, 'languages[other-answer]')).toBeUndefined();
});

test.each([
  [{ name: 'name-first', label: 'First name' }, 'First name'],
  [{ name: 'headshot', label: 'Headshot for the issue (optional)' }, 'Headshot for the issue'],
  [{ name: 'medical-license' }, 'Medical license'],
  [{ name: 'asktheexpert', type: 'asktheexpert' as const }, 'Reserve Your Expert Question'],
])('a message names %j as %s', (field, label) => {
  expect(fieldMessages.pattern({ type: 'text', ...field })).toBe(`${label} is not in the expected format.`);
});
