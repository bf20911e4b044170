import { describe, expect, it } from 'vitest';
import { closingText, isExpired, isLinkValid, linkState, secretFromPath } from '../../../src/survey/people/link.ts';

const known = (secret: string) => secret === 'k7Qm2RzX4pWv';

describe('link validity (docs/spec.md, "Links")', () => {
  it.each([
    { blank: true, secret: undefined, valid: true },
    { blank: false, secret: undefined, valid: false },
    { blank: false, secret: 'k7Qm2RzX4pWv', valid: true },
    { blank: false, secret: 'demo', valid: true },
    { blank: false, secret: 'guess', valid: false },
    { blank: true, secret: 'guess', valid: false },
    { blank: true, secret: 'demo', valid: true },
  ])('blank_surveys $blank, secret $secret → valid $valid', ({ blank, secret, valid }) => {
    expect(isLinkValid({ blank_surveys: blank }, secret, known)).toBe(valid);
  });
});

describe('expiry', () => {
  const at = (iso: string) => Date.parse(iso);
  it('counts a bare date to the end of that day', () => {
    expect(isExpired({ expiration_date: '2025-01-31' }, at('2025-01-31T23:00:00Z'))).toBe(false);
    expect(isExpired({ expiration_date: '2025-01-31' }, at('2025-02-01T00:00:00Z'))).toBe(true);
  });
  it('honours a time of day', () => {
    expect(isExpired({ expiration_date: '2030-06-01T12:00:00Z' }, at('2030-06-01T11:59:59Z'))).toBe(false);
    expect(isExpired({ expiration_date: '2030-06-01T12:00:00Z' }, at('2030-06-01T12:00:01Z'))).toBe(true);
  });
  it('never expires without a date', () => {
    expect(isExpired({}, at('2999-01-01T00:00:00Z'))).toBe(false);
  });
  it('wins over a valid link', () => {
    expect(linkState({ blank_surveys: true, expiration_date: '2000-01-01' }, undefined, known)).toBe('expired');
    expect(linkState({ blank_surveys: true, expiration_date: '2999-01-01' }, undefined, known)).toBe('form');
  });
});

describe('the secret in a personal link', () => {
  it.each([
    ['/top-doctors-demo/k7Qm2RzX4pWv', 'k7Qm2RzX4pWv'],
    ['/top-doctors-demo/k7Qm2RzX4pWv/', 'k7Qm2RzX4pWv'],
    ['/top-doctors-demo/', undefined],
    ['/top-doctors-demo/thankyou', undefined],
    ['/top-doctors-demo/personal-link/', undefined],
    ['/top-doctors-demo/results', undefined],
    ['/top-doctors-demo/results/', undefined],
    ['/other-survey/k7Qm2RzX4pWv', undefined],
    ['/top-doctors-demo/a%20b', 'a b'],
  ])('%s → %s', (pathname, secret) => {
    expect(secretFromPath(pathname, 'top-doctors-demo')).toBe(secret);
  });
});

describe('when a survey closed, as the expired page says it', () => {
  it.each([
    ['2025-01-31', '31 January 2025'],
    ['2099-12-31T23:59:59Z', '31 December 2099 at 23:59 UTC'],
    ['2030-06-01T12:30:00+02:00', '1 June 2030 at 10:30 UTC'],
    [undefined, undefined],
  ])('%s reads %s', (expiration_date, text) => {
    expect(closingText({ expiration_date })).toBe(text);
  });
});
