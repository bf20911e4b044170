import { describe, expect, it } from 'vitest';
import { nulProblems, stripStrayControls } from '../../../src/survey/ballots/control-characters.ts';
import { searchParams } from '../../../src/survey/nominees/nominee-search.ts';
import { classicFormAsBallot } from '../../../src/server/intake/classic-form.ts';
import type { FieldDef } from '../../../src/survey/config/field.struct.ts';

describe('control characters', () => {
  it.each([
    ['plain', 'Ada Lovelace', false, 'Ada Lovelace'],
    ['NUL', 'Ada\u0000', true, 'Ada\u0000'],
    ['bell and escape', 'A\u0007d\u001Ba', false, 'Ada'],
    ['tab, newline, carriage return kept', 'a\tb\r\nc', false, 'a\tb\r\nc'],
    ['vertical tab, form feed, DEL', 'a\u000Bb\u000Cc\u007F', false, 'abc'],
    ['not C1 or other scripts', 'Zoë \u00A0 Δ', false, 'Zoë \u00A0 Δ'],
  ])('%s', (_, text, nul, stripped) => {
    expect(nulProblems([['text', text]])).toEqual(nul ? [expect.objectContaining({ path: 'text' })] : []);
    if (!nul) expect(stripStrayControls(text)).toBe(stripped);
  });

  it('names every text that holds a NUL character', () => {
    expect(
      nulProblems([
        ['a', 'x'],
        ['b', 'y\u0000'],
        ['c', '\u0000'],
      ]).map((p) => p.path),
    ).toEqual(['b', 'c']);
  });
});

describe('the searched query', () => {
  it('keeps the first 100 characters, then the first 8 words', () => {
    const boundedQuery = (query: string) => searchParams({ query }).query;
    expect(boundedQuery('x'.repeat(100_000))).toHaveLength(100);
    expect(boundedQuery('one two three four five six seven eight nine ten')).toBe('one two three four five six seven eight');
    expect(boundedQuery('  ana   ferreira ')).toBe('ana ferreira');
    expect(boundedQuery('')).toBe('');
  });
});

describe('classicFormAsBallot', () => {
  const layout = [[{ name: 'years', type: 'slider', options: ['0-5', '6-10', '11+'] } as FieldDef]];
  const form = (entries: Array<[string, string]>) => {
    const data = new FormData();
    for (const [name, value] of entries) data.append(name, value);
    return data;
  };

  const known = (id: string) => id === 'n-1';

  it('keeps a nominee id of the list, and any other text of a slot as a write-in after those the form has', () => {
    const out = classicFormAsBallot(
      form([
        ['writeins[0][name]', 'Dr. Written'],
        ['writeins[0][category]', 'Medicine / Dermatology'],
        // A script picked a suggestion: the hidden id and the typed name share the slot's name.
        ['nominations[Medicine][Cardiology][1]', 'Ana Ferreira'],
        ['nominations[Medicine][Cardiology][1]', 'n-1'],
        ['nominations[Medicine][Cardiology][2]', '  Dr. Typed  '],
        ['nominations[Surgery][Neurosurgery][1]', ' '],
      ]),
      { layout },
      known,
    );
    expect([...out.entries()]).toEqual([
      ['writeins[0][name]', 'Dr. Written'],
      ['writeins[0][category]', 'Medicine / Dermatology'],
      ['nominations[Medicine][Cardiology][1]', 'n-1'],
      ['writeins[1][name]', 'Dr. Typed'],
      ['writeins[1][category]', 'Medicine / Cardiology'],
    ]);
  });

  it("reads a slider's position as its option, and leaves an option as it is", () => {
    expect(classicFormAsBallot(form([['years', '2']]), { layout }, known).get('years')).toBe('6-10');
    expect(classicFormAsBallot(form([['years', '11+']]), { layout }, known).get('years')).toBe('11+');
    expect(classicFormAsBallot(form([['years', '9']]), { layout }, known).get('years')).toBe('9');
  });
});
