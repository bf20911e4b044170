import { describe, expect, it } from 'vitest';
import { personOf, secretWeakness } from '../../../src/survey/people/secrets.ts';

describe('secretWeakness', () => {
  it.each([
    { secret: 'k7Qm2RzX4pWv', rule: undefined },
    { secret: 'demo', rule: undefined },
    { secret: 'sec-ana-R7kw2Pq', rule: undefined },
    { secret: 'Zp4Wq8Kd2Lx', rule: /shorter than 12/ },
    { secret: 'aaaaaaaaaaaa', rule: /too few different/ },
    { secret: 'abababababab', rule: /too few different/ },
    { secret: '123456789012', rule: /run of consecutive/ },
    { secret: 'abcdefghijklm', rule: /run of consecutive/ },
    { secret: '987654321098', rule: /run of consecutive/ },
    { secret: 'Password2027!', rule: /contains "password"/ },
    { secret: 'my-qwerty-link-9', rule: /contains "qwerty"/ },
  ])('$secret → $rule', ({ secret, rule }) => {
    const weakness = secretWeakness(secret);
    if (rule === undefined) expect(weakness).toBeUndefined();
    else expect(weakness).toMatch(rule);
  });
});

describe('personOf', () => {
  const map = { k7Qm2RzX4pWv: { 'name-first': 'Evelyn' } };
  it.each(['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf'])('finds no person for the inherited name %s', (secret) => {
    expect(personOf(map, secret)).toBeUndefined();
  });
  it('finds a listed secret and nothing for none', () => {
    expect(personOf(map, 'k7Qm2RzX4pWv')).toEqual({ 'name-first': 'Evelyn' });
    expect(personOf(map, undefined)).toBeUndefined();
  });
});
