import { describe, expect, test } from 'vitest';
import { create, validate } from 'superstruct';
import { SurveyConfig } from '../../../src/survey/config/config.struct.ts';
import { Field, FIELD_TYPES, type FieldDef } from '../../../src/survey/config/field.struct.ts';
import {
  FIELD_TABLE,
  answerNames,
  asksOtherText,
  exportColumns,
  fieldRow,
  formNames,
  hasOptions,
  isKind,
  isReservationType,
} from '../../../src/survey/config/fields.ts';
import { ballotStruct, validateBallot } from '../../../src/survey/ballots/ballot.struct.ts';
import { ballotParts } from '../../../src/survey/ballots/ballot-parts.ts';
import { AFFIRM_NAME, parseSlotName, slotName, writeInNames } from '../../../src/survey/ballots/ballot-keys.ts';
import { allFields, ballotCategories, ballotSlots } from '../../../src/survey/config/layout.ts';
import { layoutSegments } from '../../../src/survey/config/segments.ts';
import { outcomeFields } from '../../../src/survey/ballots/tiles.ts';
import type { BallotInput } from '../../../src/survey/ballots/ballot-input.ts';

/** A survey with one field of every type the table holds. */
const config = create(
  {
    project_id: 'fields',
    votes_per_category: 2,
    vote_requirement: 0,
    write_in_limit: 2,
    affirmation_points: [],
    categories: { Medicine: ['Cardiology', 'Dermatology'], Surgery: ['Hand'] },
    layout: [
      [
        {
          name: 'who',
          type: 'nested',
          fields: [
            { name: 'full-name', type: 'text' },
            { name: 'email', type: 'email' },
          ],
        },
      ],
      [
        { name: 'role', type: 'select', options: ['A', 'B'] },
        { name: 'years', type: 'slider', options: ['1', '2', '3'] },
        { name: 'notes', type: 'textarea' },
        { name: 'yes', type: 'radio', options: ['Yes', 'No'] },
        { name: 'fancy', type: 'fancy-radio', options: ['Up', 'Down'] },
        { name: 'tags', type: 'checkbox', options: ['X', 'Other'] },
        { name: 'plain-tags', type: 'checkbox', options: ['X', 'Y'] },
        { name: 'cv', type: 'file' },
        { name: 'intro', type: 'html', html: '<p>Hello</p>' },
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
const fields = allFields(config.layout);
const byName = (name: string) => fields.find((field) => field.name === name)!;

describe('the field table', () => {
  test('holds every type a layout may use, in the order the config error lists them', () => {
    expect(FIELD_TYPES).toEqual([
      'nested',
      'text',
      'select',
      'email',
      'nomination',
      'faces',
      'asktheexpert',
      'html',
      'slider',
      'textarea',
      'radio',
      'fancy-radio',
      'checkbox',
      'file',
    ]);
    expect(Object.keys(FIELD_TABLE)).toEqual(FIELD_TYPES);
  });

  test.each([
    ['nested', 'group'],
    ['text', 'answer'],
    ['select', 'answer'],
    ['email', 'answer'],
    ['nomination', 'nomination'],
    ['faces', 'reservation'],
    ['asktheexpert', 'reservation'],
    ['html', 'static'],
    ['slider', 'answer'],
    ['textarea', 'answer'],
    ['radio', 'answer'],
    ['fancy-radio', 'answer'],
    ['checkbox', 'answer'],
    ['file', 'file'],
  ] as const)('%s is of kind %s', (type, kind) => {
    expect(fieldRow({ type }).kind).toBe(kind);
    expect(isKind({ name: 'x', type }, kind)).toBe(true);
  });

  test('the types with options are the choices, and the config refuses one without them', () => {
    expect(FIELD_TYPES.filter(hasOptions)).toEqual(['select', 'slider', 'radio', 'fancy-radio', 'checkbox']);
    for (const type of FIELD_TYPES.filter(hasOptions)) {
      const [error] = validate({ name: 'q', type }, Field);
      expect(error?.message).toContain(`a ${type} field needs \`options\``);
      expect(validate({ name: 'q', type, options: ['One'] }, Field)[0]).toBeUndefined();
    }
  });

  test('the reservation types are the two kinds of tiles', () => {
    expect(FIELD_TYPES.filter(isReservationType)).toEqual(['faces', 'asktheexpert']);
  });

  test('only a multiple choice with an "Other" option asks for the other text', () => {
    expect(fields.filter(asksOtherText).map((field) => field.name)).toEqual(['tags']);
  });
});

describe('form-data names, stored names and export columns of each field', () => {
  test.each([
    ['full-name', ['full-name'], ['full-name'], ['full-name']],
    ['email', ['email'], ['email'], ['email']],
    ['years', ['years'], ['years'], ['years']],
    ['tags', ['tags', 'tags[other-answer]'], ['tags', 'tags[other-answer]'], ['tags', 'tags[other-answer]']],
    ['plain-tags', ['plain-tags'], ['plain-tags', 'plain-tags[other-answer]'], ['plain-tags', 'plain-tags[other-answer]']],
    ['cv', ['cv'], ['cv'], ['cv file', 'cv stored as']],
    ['intro', [], ['intro'], []],
    ['nomination', [], ['nomination'], []],
    ['faces', ['faces', 'faces[custom]'], ['faces'], ['faces', 'faces status', 'faces outcome']],
  ])('%s', (name, sent, stored, columns) => {
    const field = byName(name);
    expect(formNames(field)).toEqual(sent);
    expect(answerNames(field)).toEqual(stored);
    expect(exportColumns(field)).toEqual(columns);
  });
});

describe('every layer reads the same table', () => {
  const struct = ballotStruct(config);
  const unknown = (input: BallotInput) => validateBallot(struct, input).filter((problem) => problem.message === 'is not a field of this ballot.');

  test('the ballot struct knows exactly the names the table says each field sends, the slots, the write-ins and the affirmation', () => {
    const input: BallotInput = {};
    for (const field of fields) for (const name of formNames(field)) input[name] = '';
    for (const { name } of ballotSlots(config)) input[name] = '';
    Object.assign(input, { [writeInNames(0).name]: '', [writeInNames(0).category]: '', [AFFIRM_NAME]: '' });
    expect(unknown(input)).toEqual([]);
    for (const name of ['intro', 'nomination', 'plain-tags[other-answer]', 'email[custom]', 'cv[other-answer]', 'who']) {
      expect(unknown({ [name]: 'x' }).map((problem) => problem.path)).toEqual([name]);
    }
  });

  test('a ballot is taken apart by kind: answers, files, nominations, write-ins, reservations', () => {
    const file = { name: 'cv.pdf', size: 10, type: 'application/pdf' };
    const parts = ballotParts(config, {
      'full-name': ' Ada ',
      tags: ['X', 'Other'],
      'tags[other-answer]': 'Mine',
      cv: file,
      intro: 'ignored',
      faces: 'cardiology',
      'expert[custom]': 'My question',
      [slotName('Surgery', 'Hand', 2)]: 'n7',
      [writeInNames(0).name]: 'Dr Who',
      [writeInNames(0).category]: 'Medicine / Dermatology',
    });
    expect(parts.answers).toEqual([
      { field: 'full-name', position: 0, value: 'Ada' },
      { field: 'tags', position: 0, value: 'X' },
      { field: 'tags', position: 1, value: 'Other' },
      { field: 'tags[other-answer]', position: 0, value: 'Mine' },
    ]);
    expect(parts.files).toEqual([{ field: 'cv', file }]);
    expect(parts.reservations).toEqual([
      { field: 'faces', kind: 'faces', tile: 'cardiology' },
      { field: 'expert', kind: 'asktheexpert', custom: 'My question' },
    ]);
    expect(parts.nominations).toEqual([{ group: 'Surgery', subcategory: 'Hand', slot: 2, nomineeId: 'n7' }]);
    expect(parts.writeIns).toEqual([{ position: 0, name: 'Dr Who', group: 'Medicine', subcategory: 'Dermatology' }]);
  });

  test('the page puts the nominations and each reservation in a section of its own', () => {
    expect(layoutSegments(config.layout).map((segment) => (segment.kind === 'fields' ? 'fields' : `${segment.kind}:${segment.field.name}`))).toEqual([
      'fields',
      'nomination:nomination',
      'reservation:faces',
      'reservation:expert',
    ]);
    expect(outcomeFields(config).map(({ field, kind }) => [field, kind])).toEqual([
      ['faces', 'faces'],
      ['expert', 'asktheexpert'],
    ]);
  });
});

describe('the slots and categories of a ballot', () => {
  test('group × sub-category × slot, once each, in the order the page shows them, each name read back to its place', () => {
    const slots = ballotSlots(config);
    expect(slots.map(({ group, subcategory, slot }) => `${group}/${subcategory}/${slot}`)).toEqual([
      'Medicine/Cardiology/1',
      'Medicine/Cardiology/2',
      'Medicine/Dermatology/1',
      'Medicine/Dermatology/2',
      'Surgery/Hand/1',
      'Surgery/Hand/2',
    ]);
    for (const { group, subcategory, slot, name } of slots) expect(parseSlotName(name)).toEqual({ group, subcategory, slot });
  });

  test('the ADS group holds no slots and no categories', () => {
    const withAds = { ...config, categories: { ...config.categories, ADS: { Medicine: ['https://example.org/ad.png'] } } } as typeof config;
    expect(ballotSlots(withAds)).toHaveLength(6);
    expect(ballotCategories(withAds).map(({ key }) => key)).toEqual(['Medicine / Cardiology', 'Medicine / Dermatology', 'Surgery / Hand']);
  });

  test('a ballot of every slot is counted slot by slot, a nominee once per sub-category', () => {
    const input: BallotInput = {};
    for (const { name } of ballotSlots(config)) input[name] = 'same';
    const duplicates = validateBallot(ballotStruct(config), input).filter((problem) => problem.message === 'This nominee is already named in this category.');
    expect(duplicates.map((problem) => problem.path)).toEqual([
      slotName('Medicine', 'Cardiology', 2),
      slotName('Medicine', 'Dermatology', 2),
      slotName('Surgery', 'Hand', 2),
    ]);
  });
});

/** A field of a type, as the helpers take it. */
function field(type: FieldDef['type']): FieldDef {
  return { name: 'x', type };
}

test('a field of a kind the ballot does not send gives no names and no columns', () => {
  for (const type of ['nested', 'html', 'nomination'] as const) expect([formNames(field(type)), exportColumns(field(type))]).toEqual([[], []]);
});
