import { beforeEach, describe, expect, test } from 'vitest';
import { create } from 'superstruct';
import { SurveyConfig } from '../../../src/survey/config/config.struct.ts';
import { ballotStruct, validateBallot } from '../../../src/survey/ballots/ballot.struct.ts';
import { slotName, writeInNames } from '../../../src/survey/ballots/ballot-keys.ts';
import { collectBallot, userOf, resetBallot } from '../../../src/ballot/ballot.ts';
import type { FieldDef } from '../../../src/survey/config/field.struct.ts';
import type { VoterSurvey } from '../../../src/survey/people/voter.ts';
import { $answers, $files } from '../../../src/ballot/fields/answers.ts';
import { $affirmed } from '../../../src/ballot/fields/answers.ts';
import { $nominations } from '../../../src/ballot/nominations/nominations.ts';
import { $reservations } from '../../../src/ballot/reservations/reservations.ts';
import { restoreWriteIns } from '../../../src/ballot/writeins/writeins.ts';

const config = create(
  {
    project_id: 'store',
    votes_per_category: 1,
    vote_requirement: 0,
    write_in_limit: 1,
    categories: { Medicine: ['Cardiology'] },
    layout: [
      [
        { name: 'full-name', type: 'text' },
        { name: 'years', type: 'slider', options: ['1-5', '6-10'] },
        { name: 'tags', type: 'checkbox', options: ['X', 'Other'] },
        { name: 'cv', type: 'file' },
        { name: 'intro', type: 'html', html: '<p>Hi</p>' },
      ],
      [{ name: 'nomination', type: 'nomination' }],
      [{ name: 'faces', type: 'faces' }],
      [{ name: 'expert', type: 'asktheexpert' }],
    ],
    nominees: 'nominees.csv',
    faces: ['Cardiology'],
    asktheexpert: ['Why?'],
  },
  SurveyConfig,
);

describe('the ballot the browser sends, gathered from the stores', () => {
  beforeEach(() => resetBallot());

  test('each field under the names the field table gives it, and nothing the ballot struct does not know', () => {
    const cv = new File(['%PDF'], 'cv.pdf', { type: 'application/pdf' });
    $answers.set({ 'full-name': 'Ada', tags: ['X', 'Other'], 'tags[other-answer]': 'Mine', intro: 'not sent', nomination: 'not sent' });
    $files.set({ cv });
    $reservations.set({ faces: { tile: 'cardiology' }, expert: { custom: '  My question  ' } });
    $nominations.set({ [slotName('Medicine', 'Cardiology', 1)]: 'n1' });
    restoreWriteIns([{ name: 'Dr Who', category: 'Medicine / Cardiology' }]);
    $affirmed.set(true);
    const ballot = collectBallot(config);
    expect(ballot).toEqual({
      'full-name': 'Ada',
      years: '1-5',
      tags: ['X', 'Other'],
      'tags[other-answer]': 'Mine',
      cv,
      faces: 'cardiology',
      'expert[custom]': 'My question',
      [slotName('Medicine', 'Cardiology', 1)]: 'n1',
      [writeInNames(0).name]: 'Dr Who',
      [writeInNames(0).category]: 'Medicine / Cardiology',
      affirm: 'on',
    });
    expect(validateBallot(ballotStruct(config), ballot)).toEqual([]);
  });

  test('a moved slider sends its option; an "Other" text without "Other" ticked stays behind', () => {
    $answers.set({ years: '6-10', tags: ['X'], 'tags[other-answer]': 'Left over' });
    expect(collectBallot(config)).toEqual({ years: '6-10', tags: ['X'] });
  });
});

const text = (name: string): FieldDef => ({ name, type: 'text' });
const nestedName: FieldDef = { name: 'name', type: 'nested', fields: [text('name-first'), text('name-middle'), text('name-last')] };
const voterLayout: FieldDef[] = [text('medical-license'), { name: 'mail', type: 'email' }];

describe("the page's error report names its user as the tally names the voter", () => {
  test.each<[string, VoterSurvey, Record<string, string | string[]>, { email?: string; name?: string }]>([
    [
      'the demo layout: first, middle and last name, and the email',
      { layout: [[nestedName], voterLayout] },
      { 'name-first': 'Ana', 'name-last': 'Ferreira', mail: 'ana@example.org' },
      { email: 'ana@example.org', name: 'Ana Ferreira' },
    ],
    [
      'name_fields, which the page carries',
      { layout: [[text('member-name')]], name_fields: ['member-name'] },
      { 'member-name': 'M. Oyelaran' },
      { name: 'M. Oyelaran' },
    ],
    ['nothing given: no email, no name', { layout: [[nestedName], voterLayout] }, {}, {}],
    ['a list where a text belongs is no answer', { layout: [[text('full-name')]] }, { 'full-name': ['Ana', 'Bo'] }, {}],
  ])('%s', (_name, survey, input, expected) => {
    expect(userOf(input, survey, 'key-1')).toEqual({ id: 'key-1', email: undefined, name: undefined, ...expected });
  });
});
