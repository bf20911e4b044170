import { describe, expect, test } from 'vitest';
import { validate } from 'superstruct';
import { answerStruct } from '../../../src/survey/ballots/ballot-rules.ts';
import { Field } from '../../../src/survey/config/field.struct.ts';
import { formatReceipt, normalizeReceipt, receiptAnswerText, RECEIPT_ALPHABET, RECEIPT_LENGTH } from '../../../src/survey/published/receipt-code.ts';
import { newReceiptCode, newSecret, pseudonym, secretHash } from '../../../src/server/tokens.ts';
import { greetingName, parseRoster, personalLink, planInvitations } from '../../../src/results/voters/roster.ts';
import { responseCounts, type InvitedPerson } from '../../../src/results/voters/responses.ts';
import { OperatorError } from '../../../src/results/operator.ts';
import { peerCheck } from '../../support/results-db.ts';

const { survey, nominees } = peerCheck();
const ids = new Set(nominees.map((n) => n.id));
const roster = (text: string) => parseRoster('people.csv', text, survey.config, (id) => ids.has(id));

describe('secrets and receipt codes', () => {
  test('a secret is 128 random bits in base64url: 22 characters safe in a path, never twice the same', () => {
    const secrets = Array.from({ length: 2000 }, newSecret);
    for (const secret of secrets) expect(secret).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(Buffer.from(secrets[0], 'base64url')).toHaveLength(16);
    expect(new Set(secrets).size).toBe(secrets.length);
  });

  test('a receipt code is 12 letters of the unambiguous alphabet, random, and reads back however it is typed', () => {
    const codes = Array.from({ length: 2000 }, newReceiptCode);
    for (const code of codes) {
      expect(code).toHaveLength(RECEIPT_LENGTH);
      expect([...code].every((c) => RECEIPT_ALPHABET.includes(c))).toBe(true);
      expect(normalizeReceipt(formatReceipt(code).toLowerCase())).toBe(code);
    }
    expect(new Set(codes).size).toBe(codes.length);
    // Every letter turns up: no letter of the alphabet is left out of the draw.
    expect(new Set(codes.join('')).size).toBe(RECEIPT_ALPHABET.length);
    expect(formatReceipt('7K3MQ9TD2XHB')).toBe('7K3M-Q9TD-2XHB');
    expect(normalizeReceipt(' 7k3m q9td-2xhb ')).toBe('7K3MQ9TD2XHB');
    expect(normalizeReceipt('OIL0-0000-0000')).toBe('0110' + '00000000');
    expect(normalizeReceipt('7K3M-Q9TD-2XH')).toBeUndefined();
    expect(normalizeReceipt('7K3M-Q9TD-2XHU')).toBeUndefined();
    expect(normalizeReceipt("'; drop table ballots")).toBeUndefined();
  });

  test("the voter's words for each answer of a check", () => {
    expect(receiptAnswerText({ received: true, received_at: '2030-01-01T09:05:00.000Z' }, '7k3mq9td2xhb')).toBe(
      'Your ballot with the receipt 7K3M-Q9TD-2XHB was received on 1 January 2030 at 09:05 UTC.',
    );
    expect(receiptAnswerText({ received: false }, '7K3MQ9TD2XHB')).toBe(
      'No ballot with the receipt 7K3M-Q9TD-2XHB has been received. Check the code against your thank-you page.',
    );
    expect(receiptAnswerText('bad-code', 'x')).toMatch(/^That is not a receipt code/);
  });

  test('hashes: a secret is stored as its SHA-256; a pseudonym needs the key and depends on the kind', () => {
    expect(secretHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const key = Buffer.alloc(32, 1);
    expect(pseudonym(key, 'email', 'a@b.org')).toBe(pseudonym(Buffer.alloc(32, 1), 'email', 'a@b.org'));
    expect(pseudonym(key, 'email', 'a@b.org')).not.toBe(pseudonym(Buffer.alloc(32, 2), 'email', 'a@b.org'));
    expect(pseudonym(key, 'email', 'x')).not.toBe(pseudonym(key, 'license', 'x'));
  });
});

describe('NPI and pattern checks at entry', () => {
  test.each([
    ['1234567893', true],
    ['1245319599', true],
    ['123-456-7893', false],
    ['1234567890', false],
    ['123456789', false],
    ['12345678931', false],
    ['abcdefghij', false],
  ])('an NPI field takes %s: %s', (value, valid) => {
    const npi = answerStruct({ name: 'npi', type: 'text', label: 'NPI', validation: { npi: true } });
    expect(validate(value, npi)[0] === undefined).toBe(valid);
  });

  test('the field struct applies npi and pattern with their messages; blank passes unless required', () => {
    const npi = answerStruct({ name: 'npi', type: 'text', label: 'NPI', validation: { npi: true } });
    expect(validate('1234567893', npi)[0]).toBeUndefined();
    expect(validate(undefined, npi)[0]).toBeUndefined();
    expect(validate('1234567890', npi)[0]?.message).toBe('NPI is not a valid National Provider Identifier (NPI): enter its 10 digits.');
    const worded = answerStruct({ name: 'npi', type: 'text', validation: { npi: true, message: 'Enter the 10-digit NPI.' } });
    expect(validate('1234567890', worded)[0]?.message).toBe('Enter the 10-digit NPI.');
    const license = answerStruct({ name: 'lic', type: 'text', validation: { pattern: '^[A-Za-z]{1,4}-?[A-Za-z0-9]{3,12}$', message: 'Like MD-123456.' } });
    expect(validate('MD-123456', license)[0]).toBeUndefined();
    expect(validate('123456', license)[0]?.message).toBe('Like MD-123456.');
  });

  test('a pattern that is no regular expression fails the survey file', () => {
    const [error] = validate({ name: 'lic', type: 'text', validation: { pattern: '([a-z' } }, Field);
    expect(error?.message).toMatch(/validation\.pattern is not a valid regular expression/);
  });
});

describe('rosters', () => {
  test('email, layout fields and nominee_id become the person; the layout checks each value', () => {
    const people = roster(
      'email,name-first,name-last,medical-practice,nominee_id\nAna@Example.org,Ana,Ferreira,Northgate Clinic,c-1\nbo@example.org,Bo,,Riverside Heart,\n',
    );
    expect(people).toEqual([
      {
        line: 2,
        key: 'ana@example.org',
        values: { email: 'Ana@Example.org', 'name-first': 'Ana', 'name-last': 'Ferreira', 'medical-practice': 'Northgate Clinic', nominee_id: 'c-1' },
      },
      { line: 3, key: 'bo@example.org', values: { email: 'bo@example.org', 'name-first': 'Bo', 'medical-practice': 'Riverside Heart' } },
    ]);
    expect(greetingName(people[0].values, survey.config)).toBe('Ana Ferreira');
    expect(personalLink('https://vote.example.com/', 'peer-check', 'a_b-c')).toBe('https://vote.example.com/peer-check/a_b-c');
  });

  test.each([
    ['an unknown column', 'email,shoe-size\na@b.org,9\n', 'line 1, column 2: "shoe-size" is not a known column'],
    ['no email column', 'name-first\nAna\n', 'line 1: needs a column named "email"'],
    ['a row without an email', 'email,name-first\n,Ana\n', 'line 2, column "email": is empty'],
    ['an address that is none', 'email\nnot-an-address\n', 'line 2, column "email": "not-an-address" is not an email address'],
    ['the same person twice', 'email\nana@example.org\n ANA@example.org\n', 'line 3, column "email": "ANA@example.org" is already on line 2'],
    ['a nominee id off the list', 'email,nominee_id\nana@example.org,zz-9\n', 'line 2, column "nominee_id": "zz-9" is not an id on the nominee list'],
    ['a row of the wrong length', 'email,name-first\nana@example.org\n', 'line 2: has 1 values but the header names 2 columns'],
    ['no people', 'email\n', 'line 2: the roster holds no people'],
  ])('%s is named by line and column', (_, text, message) => {
    expect(() => roster(text)).toThrow(OperatorError);
    expect(() => roster(text)).toThrow(message);
  });

  test('people keep their secret across runs; new people get a new one; missing people are kept unless asked', () => {
    let n = 0;
    const newSecret = () => `s${++n}`;
    const first = planInvitations(roster('email,name-first\nana@example.org,Ana\nbo@example.org,Bo\n'), {}, survey.config, { removeMissing: false, newSecret });
    expect(first).toMatchObject({ added: ['s1', 's2'], updated: [], unchanged: [], missing: [], rosterSecrets: ['s1', 's2'] });
    const next = roster('email,name-first\nbo@example.org,Bo\nana@example.org,Anna\ncy@example.org,Cy\n');
    const second = planInvitations(next, first.map, survey.config, { removeMissing: false, newSecret });
    expect(second).toMatchObject({ added: ['s3'], updated: ['s1'], unchanged: ['s2'], missing: [], rosterSecrets: ['s2', 's1', 's3'] });
    // Matched by address whatever its case.
    const third = planInvitations(roster('email,name-first\nCY@example.org,Cy\n'), { ...second.map, 'sec-old': { 'name-first': 'Old' } }, survey.config, {
      removeMissing: false,
      newSecret,
    });
    expect(third.rosterSecrets).toEqual(['s3']);
    expect(third.missing.sort()).toEqual(['s1', 's2', 'sec-old']);
    expect(Object.keys(third.map).sort()).toEqual(['s1', 's2', 's3', 'sec-old']);
    const removed = planInvitations(roster('email\ncy@example.org\n'), second.map, survey.config, { removeMissing: true, newSecret });
    expect(Object.keys(removed.map)).toEqual(['s3']);
  });
});

describe('response counts', () => {
  test('overall, then per value of a column; pending split into opened and never opened', () => {
    const person = (status: InvitedPerson['status'], region?: string): InvitedPerson => ({ secret: 'x', person: region ? { region } : {}, status });
    const people = [person('responded', 'North'), person('opened', 'North'), person('not_opened', 'South'), person('not_opened')];
    expect(responseCounts(people, 'region')).toEqual([
      { group: '(all)', invited: 4, responded: 1, opened: 1, notOpened: 2 },
      { group: '(blank)', invited: 1, responded: 0, opened: 0, notOpened: 1 },
      { group: 'North', invited: 2, responded: 1, opened: 1, notOpened: 0 },
      { group: 'South', invited: 1, responded: 0, opened: 0, notOpened: 1 },
    ]);
  });
});
