import { describe, expect, it } from 'vitest';
import { loadSurvey } from '../../../src/survey/config/loader.ts';
import { groupsLeftOut, groupValue, responseShare, rosterColumns, RosterTally } from '../../../src/survey/people/roster-groups.ts';
import type { FieldDef } from '../../../src/survey/config/field.struct.ts';

// The roster columns the console counts invited people by, and the counting itself: pure rules,
// proved here rather than through a server.

const text = (name: string, more: Partial<FieldDef> = {}): FieldDef => ({ name, type: 'text', label: name, ...more }) as FieldDef;

describe('the roster columns people are counted by', () => {
  it("the demo survey's: its answer fields that say nothing of who one person is, in the layout's order", () => {
    const demo = loadSurvey('top-doctors-demo');
    // Its names (marked personal), licence, email and phone fields are left out; so are the file, the html and the sections.
    expect(rosterColumns(demo.config)).toEqual([
      'medical-credential',
      'medical-practice',
      'board-certified',
      'practice-setting',
      'years-in-practice',
      'languages',
      'comments',
    ]);
  });

  it.each<[string, Partial<Parameters<typeof rosterColumns>[0]>, string[]]>([
    ['roster_columns after the layout, a column in both once', { roster_columns: ['region', 'specialty', 'region'] }, ['specialty', 'region']],
    ["the roster's own keys", { roster_columns: ['email', 'name', 'nominee_id', 'region'] }, ['specialty', 'region']],
    [
      'a name that says it identifies someone',
      {
        roster_columns: ['member-name', 'home_phone', 'secret', 'login-token', 'NPI', 'e-mail', 'licence-number', 'member-id', 'street_address', 'region'],
      },
      ['specialty', 'region'],
    ],
    [
      'names that merely hold those letters',
      { roster_columns: ['renamed_units', 'telephony-team', 'tokenism'] },
      ['specialty', 'renamed_units', 'telephony-team', 'tokenism'],
    ],
    ['the licence field, under another name', { license_field: 'specialty' }, []],
    ['a name too long for an index', { roster_columns: [`r${'x'.repeat(100)}`] }, ['specialty']],
  ])('%s', (_, change, expected) => {
    const config = { layout: [[text('specialty'), text('given', { personal: true })]], roster_columns: [], license_field: 'medical-license', ...change };
    expect(rosterColumns(config)).toEqual(expected);
  });

  it("a member number the layout holds, unmarked, is none: the members' survey counts by no column", () => {
    expect(rosterColumns(loadSurvey('members-choice').config)).toEqual([]);
  });

  it('fields of a nested name and email fields are never columns, marked personal or not', () => {
    const layout = [
      [{ name: 'name', type: 'nested', label: 'Name', fields: [text('first'), text('last')] } as FieldDef],
      [{ ...text('work'), type: 'email' } as FieldDef],
    ];
    expect(rosterColumns({ layout, roster_columns: ['region'], license_field: 'medical-license' })).toEqual(['region']);
  });
});

describe("a person's value, and the groups of a column", () => {
  it.each<[string, string | string[] | undefined, string]>([
    ['text, trimmed', '  Cardiology ', 'Cardiology'],
    ['a list, joined', ['English', 'Spanish'], 'English; Spanish'],
    ['nothing', undefined, ''],
    ['spaces only', '   ', ''],
  ])('%s', (_, value, expected) => {
    expect(groupValue(value === undefined ? {} : { c: value }, 'c')).toBe(expected);
  });

  it("counts each person in everyone's group and a group of each column, the ids their first ballot counts in", () => {
    const tally = new RosterTally(['specialty', 'region', 'unused']);
    expect(tally.add({ specialty: 'Cardiology', region: 'North' }, true)).toEqual([0, 1, 2, 3]);
    expect(tally.add({ specialty: ' Cardiology', region: 'South' }, false)).toEqual([0, 1, 4, 3]);
    expect(tally.add({ specialty: 'Pediatrics' }, false)).toEqual([0, 5, 6, 3]);
    // A column no one holds a value in is left out; the blank value of a held column is a group.
    expect(tally.counted()).toEqual([
      { name: 'specialty', position: 0, groups: 2 },
      { name: 'region', position: 1, groups: 3 },
    ]);
    expect([...tally.groups()]).toEqual([
      { id: 0, column: '', value: '', invited: 3, responded: 1 },
      { id: 1, column: 'specialty', value: 'Cardiology', invited: 2, responded: 1 },
      { id: 2, column: 'region', value: 'North', invited: 1, responded: 1 },
      { id: 4, column: 'region', value: 'South', invited: 1, responded: 0 },
      { id: 5, column: 'specialty', value: 'Pediatrics', invited: 1, responded: 0 },
      { id: 6, column: 'region', value: '', invited: 1, responded: 0 },
    ]);
  });

  it('keeps the first characters of a long value, and tells two long values apart by the whole of them', () => {
    const tally = new RosterTally(['note']);
    const long = 'x'.repeat(10_000);
    tally.add({ note: `${long}a` }, false);
    tally.add({ note: `${long}b` }, false);
    const groups = [...tally.groups()].slice(1);
    expect(groups).toHaveLength(2);
    // The first 200 characters.
    expect(groups.map((group) => group.value.length)).toEqual([200, 200]);
  });

  it('the groups a table leaves out are the rest of the totals, in one row', () => {
    const shown = [
      { invited: 50, responded: 20 },
      { invited: 30, responded: 30 },
    ];
    expect(groupsLeftOut({ values: 5, invited: 100, responded: 60 }, shown)).toEqual({ values: 3, invited: 20, responded: 10 });
    expect(groupsLeftOut({ values: 2, invited: 80, responded: 50 }, shown)).toBeUndefined();
    // Totals read a moment apart from the groups never make a negative row.
    expect(groupsLeftOut({ values: 3, invited: 70, responded: 40 }, shown)).toEqual({ values: 1, invited: 0, responded: 0 });
  });

  it.each([
    [{ invited: 3, responded: 2 }, '66%'],
    [{ invited: 1000, responded: 999 }, '99%'],
    [{ invited: 4, responded: 4 }, '100%'],
    [{ invited: 0, responded: 0 }, '–'],
  ])('the share of %o that has voted is %s, never rounded up to all', (group, share) => {
    expect(responseShare(group)).toBe(share);
  });
});
