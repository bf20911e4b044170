import { describe, expect, test } from 'vitest';
import { addressKey, isAddress, licenceKey, maskAddress, replacedSentence, validNpi } from '../../../src/survey/people/verification.ts';

describe('verified voters: what a voter types', () => {
  test.each([
    ['jane@north.org', 'j•••@n•••.org'],
    ['a@b.co.uk', 'a•••@b•••.uk'],
    ['omar@localhost', 'o•••@l•••'],
  ])('%s is shown masked as %s', (address, masked) => {
    expect(maskAddress(address)).toBe(masked);
  });

  test('addresses are compared trimmed and in lower case; a text without one @ and a dotted domain is none', () => {
    expect(addressKey('  Ada@Example.ORG ')).toBe('ada@example.org');
    expect(['ada@example.org', 'a.b+c@x.y'].map(isAddress)).toEqual([true, true]);
    expect(['ada', 'ada@example', 'a b@example.org', '@example.org', `${'a'.repeat(250)}@x.org`].map(isAddress)).toEqual([false, false, false, false, false]);
  });

  test('a licence is compared by its letters and digits, an NPI without its prefix; an NPI must pass its check digit', () => {
    expect(licenceKey('md 418-203')).toBe('MD418203');
    expect(licenceKey('NPI 1234567893')).toBe('1234567893');
    expect([validNpi('1234567893'), validNpi('1245319599'), validNpi('1234567890'), validNpi('123456789')]).toEqual([true, true, false, false]);
  });

  test('the replaced sentence names when the earlier ballot was sent, in UTC', () => {
    expect(replacedSentence('2030-01-01T09:05:00.000Z')).toBe('Your ballot replaced the one sent on 1 January 2030 at 09:05 UTC.');
  });
});
