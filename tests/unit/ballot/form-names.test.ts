import { describe, expect, test } from 'vitest';
import {
  customReservationName,
  fieldNameOf,
  isFieldName,
  otherAnswerName,
  parseOtherAnswerName,
  parseSlotName,
  parseWriteInName,
  slotName,
  writeInIndices,
  writeInNames,
} from '../../../src/survey/ballots/ballot-keys.ts';
import { problemTargetId } from '../../../src/ballot/fields/problem-target.ts';

/** Every reader of a form-data name, for the cases where none of them may accept it. */
const readers = { parseSlotName, parseWriteInName, parseOtherAnswerName };

describe('form-data names: each one built is read back the same', () => {
  test.each([
    ['Medicine', 'Cardiology', 1],
    ['Surgery', 'Plastic & Reconstructive Surgery', 5],
    ['Dentistry', 'Oral / Maxillofacial', 3],
    ['Ünïcode', 'Pédiatrie', 2],
  ])('slot %s / %s #%i', (group, subcategory, slot) => {
    expect(slotName(group, subcategory, slot)).toBe(`nominations[${group}][${subcategory}][${slot}]`);
    expect(parseSlotName(slotName(group, subcategory, slot))).toEqual({ group, subcategory, slot });
  });

  test.each([0, 1, 9, 10, 999])('write-in %i', (index) => {
    const names = writeInNames(index);
    expect(names).toEqual({ name: `writeins[${index}][name]`, category: `writeins[${index}][category]` });
    expect(parseWriteInName(names.name)).toEqual({ index, part: 'name' });
    expect(parseWriteInName(names.category)).toEqual({ index, part: 'category' });
  });

  test.each(['tags', 'hospital-role', 'a', 'Field_2'])('other-answer and custom of %s', (field) => {
    expect(otherAnswerName(field)).toBe(`${field}[other-answer]`);
    expect(parseOtherAnswerName(otherAnswerName(field))).toBe(field);
    expect(customReservationName(field)).toBe(`${field}[custom]`);
    expect(fieldNameOf(otherAnswerName(field))).toBe(field);
    expect(fieldNameOf(customReservationName(field))).toBe(field);
    expect(fieldNameOf(field)).toBe(field);
  });

  test('each reader takes only its own kind of name', () => {
    expect(parseSlotName(writeInNames(0).name)).toBeUndefined();
    expect(parseWriteInName(slotName('A', 'B', 1))).toBeUndefined();
    expect(parseOtherAnswerName(customReservationName('faces'))).toBeUndefined();
    expect(parseOtherAnswerName('tags')).toBeUndefined();
  });
});

describe('form-data names: hostile names are read as nothing', () => {
  test.each([
    ['a write-in number past 999', 'writeins[999999999][name]'],
    ['a write-in number of four digits', 'writeins[1000][category]'],
    ['a negative write-in number', 'writeins[-1][name]'],
    ['a write-in with another part', 'writeins[1][email]'],
    ['a write-in name with a tail', 'writeins[1][name]x'],
    ['a write-in name with a NUL byte', 'writeins[1\u0000][name]'],
    ['__proto__', '__proto__'],
    ['constructor', 'constructor'],
    ['a slot with "]" inside its group', 'nominations[A]B][C][1]'],
    ['a slot with a trailing "]"', 'nominations[A][B][1]]'],
    ['a slot of no number', 'nominations[A][B][x]'],
    ['a slot with an empty group', 'nominations[][B][1]'],
    ['a slot with a NUL byte', 'nominations[A][B][1]\u0000'],
    ['an other-answer of no field', '[other-answer]'],
    ['an other-answer of a bracketed name', 'a]b[other-answer]'],
    ['an other-answer with a NUL byte', 'tags\u0000[other-answer]'],
    ['a custom text of __proto__ with a space', '__proto__ [custom]'],
    ['a custom text nested twice', 'faces[custom][custom]'],
    ['the empty name', ''],
  ])('%s', (_, name) => {
    for (const read of Object.values(readers)) expect(read(name)).toBeUndefined();
  });

  test('a field name is letters, digits, dashes and underscores after a letter', () => {
    for (const good of ['email', 'full-name', 'q_2', 'A']) expect(isFieldName(good)).toBe(true);
    for (const bad of ['', '2nd', '-x', '__proto__', 'a[b]', 'a b', 'a\u0000', 'tags[other-answer]']) expect(isFieldName(bad)).toBe(false);
  });

  test('the field a suffixed name belongs to is what comes before its first bracket', () => {
    expect(fieldNameOf('tags[other-answer][x]')).toBe('tags');
    expect(fieldNameOf('[custom]')).toBe('');
  });
});

describe('write-in numbers in a set of names', () => {
  test('each number once, in numeric order, other names ignored', () => {
    const names = ['writeins[10][name]', 'writeins[9][category]', 'writeins[10][category]', 'email', 'writeins[2][name]', 'writeins[99999][name]', '__proto__'];
    expect(writeInIndices(names)).toEqual([2, 9, 10]);
  });

  test('reads any iterable, such as the keys of form data', () => {
    const form = new FormData();
    form.append('writeins[3][name]', 'Dr A');
    form.append('writeins[0][name]', 'Dr B');
    expect(writeInIndices(form.keys())).toEqual([0, 3]);
  });
});

describe('the element a problem points to, by its form-data name', () => {
  test.each([
    ['email', 'field-email'],
    ['tags[other-answer]', 'field-tags-other'],
    ['faces[custom]', 'field-faces[custom]'],
    ['nominations[Medicine][Cardiology][2]', 'nomination-nominations-medicine-cardiology-2'],
    ['x y[other-answer]', 'field-x y[other-answer]'],
  ])('%s → #%s', (path, id) => {
    expect(problemTargetId(path)).toBe(id);
  });
});
