import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { validate } from 'superstruct';
import { describe, expect, test } from 'vitest';
import { isAutofillValue } from '../../../src/survey/config/autofill.ts';
import { Field } from '../../../src/survey/config/field.struct.ts';
import { autofillToken } from '../../../src/survey/config/fields.ts';
import { copySurveys, editSurvey } from '../../support/survey-fixture.ts';

// WCAG 1.3.5, Identify Input Purpose: a field's `autocomplete` names what it holds, checked
// against the HTML Standard's autofill grammar, and the ballot's controls carry it.

describe('isAutofillValue', () => {
  test.each([
    'given-name',
    'additional-name',
    'family-name',
    'name',
    'email',
    'tel',
    'organization',
    'off',
    'on',
    'work email',
    'mobile tel',
    'section-voter shipping postal-code',
    'billing work tel-national',
    'username webauthn',
  ])('accepts %j', (value) => expect(isAutofillValue(value)).toBe(true));

  test.each([
    'first-name',
    'Given-Name',
    ' given-name',
    'phone',
    'telephone',
    '',
    'work given-name',
    'shipping section-voter street-address',
    'email tel',
    'off email',
    'webauthn',
    'given-name webauthn webauthn',
  ])('refuses %j', (value) => expect(isAutofillValue(value)).toBe(false));
});

describe('autofillToken', () => {
  test('the survey’s token on a control a browser fills in; email by default on an email field; none elsewhere', () => {
    expect(autofillToken({ name: 'first', type: 'text', autocomplete: 'given-name' })).toBe('given-name');
    expect(autofillToken({ name: 'mail', type: 'email' })).toBe('email');
    expect(autofillToken({ name: 'mail', type: 'email', autocomplete: 'work email' })).toBe('work email');
    expect(autofillToken({ name: 'note', type: 'text' })).toBeUndefined();
    expect(autofillToken({ name: 'title', type: 'select', options: ['Dr'], autocomplete: 'honorific-prefix' })).toBe('honorific-prefix');
    expect(autofillToken({ name: 'setting', type: 'radio', options: ['A'], autocomplete: 'organization' })).toBeUndefined();
  });

  test('the demo’s personal fields name what they hold', () => {
    const yaml = readFileSync('surveys/top-doctors-demo/survey.yaml', 'utf8');
    for (const [name, token] of [
      ['name-first', 'given-name'],
      ['name-middle', 'additional-name'],
      ['name-last', 'family-name'],
      ['phone', 'tel'],
      ['medical-practice', 'organization'],
    ]) {
      expect(yaml).toMatch(new RegExp(`- name: ${name}\\n(?:\\s+\\w+: .*\\n)*?\\s+autocomplete: ${token}\\n`));
    }
  });
});

describe('the field struct', () => {
  test('refuses a word that is no autofill token at the key itself, and a token on a field no browser fills in', () => {
    const [bad] = validate({ name: 'phone', type: 'text', autocomplete: 'phone' }, Field);
    expect(bad?.path).toEqual(['autocomplete']);
    expect(bad?.message).toContain('"phone" is not an HTML autocomplete token: use one such as given-name, family-name, email, tel');
    const [misplaced] = validate({ name: 'setting', type: 'radio', options: ['A'], autocomplete: 'organization' }, Field);
    expect(misplaced?.message).toContain('only a field of type text, select, email, textarea may have `autocomplete` (this one is of type radio)');
    expect(validate({ name: 'phone', type: 'text', autocomplete: 'mobile tel' }, Field)[0]).toBeUndefined();
  });

  test('check:surveys names the file, its line and the key of a bad token, and the token', () => {
    const dir = copySurveys();
    const file = editSurvey(dir, 'top-doctors-demo', ['layout', 2, 1, 'autocomplete'], 'phone-number');
    const check = spawnSync(process.execPath, ['bin/check-surveys.ts'], { env: { ...process.env, SURVEYS_DIR: dir }, encoding: 'utf8' });
    expect(check.status).not.toBe(0);
    const line =
      readFileSync(file, 'utf8')
        .split('\n')
        .findIndex((text) => text.includes('autocomplete: phone-number')) + 1;
    expect(check.stdout).toMatch(
      new RegExp(`${file.replaceAll('/', '\\/')}:${line}:\\d+  layout\\[2\\]\\[1\\]\\.autocomplete  "phone-number" is not an HTML autocomplete token`),
    );
  });
});
