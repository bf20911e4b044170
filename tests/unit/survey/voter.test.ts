import { describe, expect, test } from 'vitest';
import type { FieldDef } from '../../../src/survey/config/field.struct.ts';
import { voterAnswers, voterFieldNames, voterFields, type VoterFields, type VoterSurvey } from '../../../src/survey/people/voter.ts';

const text = (name: string): FieldDef => ({ name, type: 'text' });
const nestedName: FieldDef = { name: 'name', type: 'nested', fields: [text('name-first'), text('name-middle'), text('name-last')] };
const common: FieldDef[] = [text('medical-license'), { name: 'mail', type: 'email' }, text('medical-practice'), text('county')];
const settings = { workplace_field: 'medical-practice', license_field: 'medical-license' };

describe('voterFields: which fields of a layout say who the voter is', () => {
  test.each<[string, VoterSurvey, VoterFields]>([
    [
      'a nested field called name gives its subfields, in order',
      { layout: [[nestedName], common], ...settings },
      { email: 'mail', license: 'medical-license', practice: 'medical-practice', name: ['name-first', 'name-middle', 'name-last'] },
    ],
    ['else a field called full-name', { layout: [[text('full-name'), text('name')]] }, { name: ['full-name'] }],
    ['else a field called name', { layout: [[text('name')]] }, { name: ['name'] }],
    ['no other field is taken for the name unless name_fields says so', { layout: [[text('member-name'), text('practice-name')]] }, { name: [] }],
    [
      'name_fields names them, in its order',
      { layout: [[text('member-name'), text('title')]], name_fields: ['title', 'member-name'] },
      { name: ['title', 'member-name'] },
    ],
    [
      'name_fields that the layout lacks are left out',
      { layout: [[text('member-name')]], name_fields: ['member-name', 'nickname'] },
      { name: ['member-name'] },
    ],
    [
      'the first email field',
      {
        layout: [
          [
            { name: 'work', type: 'email' },
            { name: 'home', type: 'email' },
          ],
        ],
      },
      { email: 'work', name: [] },
    ],
    ['license and practice only when the layout has the fields named', { layout: [[text('license')]], ...settings }, { name: [] }],
    [
      'the region when the methodology compares regions',
      { layout: [common], ...settings, tally: { region_match: { rule: 'flag', voter_field: 'county', nominee_field: 'city' } } as VoterSurvey['tally'] },
      { email: 'mail', license: 'medical-license', practice: 'medical-practice', region: 'county', name: [] },
    ],
    [
      'no region when the rule is off',
      { layout: [common], ...settings, tally: { region_match: { rule: 'off', voter_field: 'county', nominee_field: 'city' } } as VoterSurvey['tally'] },
      { email: 'mail', license: 'medical-license', practice: 'medical-practice', name: [] },
    ],
  ])('%s', (_name, survey, expected) => {
    expect(voterFields(survey)).toEqual(expected);
  });

  test('voterFieldNames lists the fields voterAnswers reads', () => {
    expect(voterFieldNames({ email: 'mail', license: 'medical-license', region: 'county', name: ['name-first', 'name-last'] })).toEqual([
      'mail',
      'medical-license',
      'county',
      'name-first',
      'name-last',
    ]);
  });
});

describe('voterAnswers: who the ballot says its voter is, as written', () => {
  const fields: VoterFields = { email: 'mail', license: 'medical-license', practice: 'medical-practice', name: ['name-first', 'name-middle', 'name-last'] };

  test.each<[string, Record<string, string>, ReturnType<typeof voterAnswers>]>([
    [
      'every part, trimmed; the name parts joined by spaces',
      {
        'name-first': ' Ana ',
        'name-middle': 'B.',
        'name-last': 'Ferreira',
        mail: ' Ana@Example.org ',
        'medical-license': 'md-1001',
        'medical-practice': 'Northgate',
      },
      { name: 'Ana B. Ferreira', email: 'Ana@Example.org', license: 'md-1001', practice: 'Northgate' },
    ],
    [
      'a blank name part is left out, not a double space',
      { 'name-first': 'Ana', 'name-middle': '  ', 'name-last': 'Ferreira' },
      { name: 'Ana Ferreira', email: '', license: '', practice: '' },
    ],
    ['a ballot that says nothing', {}, { name: '', email: '', license: '', practice: '' }],
  ])('%s', (_name, answers, expected) => {
    expect(voterAnswers(fields, (field) => answers[field])).toEqual(expected);
  });

  test('a survey without the field reads nothing for that part, whatever the ballot holds', () => {
    expect(voterAnswers({ name: [] }, () => 'anything')).toEqual({ name: '', email: '', license: '', practice: '' });
  });

  test('the region only when the fields have one', () => {
    expect(voterAnswers({ region: 'county', name: [] }, (field) => (field === 'county' ? ' Kent ' : undefined))).toMatchObject({ region: 'Kent' });
    expect(voterAnswers({ name: [] }, () => 'Kent')).not.toHaveProperty('region');
  });
});
