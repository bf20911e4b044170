import { describe, expect, it } from 'vitest';
import { classifyAnswer, isFinal, refusalLines, type BallotAnswer } from '../../../src/survey/ballots/ballot-answer.ts';

const receipt = { ballot_id: 'b-1', reservations: [] };
const refusal = (error: string, message: string, problems: unknown[] = []) => ({ error, message, problems });

describe('what an answer of the survey API means for the voter', () => {
  it.each<[string, BallotAnswer, string, boolean]>([
    ['201 with a receipt', { status: 201, body: receipt }, 'stored', true],
    [
      '409 already_submitted',
      { status: 409, body: refusal('already_submitted', 'A ballot has already been received for this personal link; the first one is kept.') },
      'already-received',
      true,
    ],
    [
      '409 request_in_progress',
      { status: 409, body: refusal('request_in_progress', 'This ballot is still being received; try again in a moment.') },
      'in-progress',
      false,
    ],
    ['409 without a body', { status: 409, body: null }, 'in-progress', false],
    [
      '422 invalid_ballot',
      { status: 422, body: refusal('invalid_ballot', 'Some answers need another look.', [{ path: 'email', message: 'email is not valid.' }]) },
      'refused',
      true,
    ],
    ['410 expired', { status: 410, body: refusal('expired', 'Survey form has expired!') }, 'refused', true],
    ['403 invalid_link', { status: 403, body: refusal('invalid_link', 'Sorry, this link is invalid!') }, 'refused', true],
    ['400 with a body that is no JSON', { status: 400, body: null }, 'refused', true],
    ['413 body_too_large', { status: 413, body: refusal('body_too_large', 'Too large.') }, 'refused', true],
    ['429 rate_limited', { status: 429, body: refusal('rate_limited', 'Too many ballots from this address.') }, 'try-later', false],
    ['500', { status: 500, body: null }, 'try-later', false],
    ['502 from a proxy', { status: 502, body: null }, 'try-later', false],
    ['503', { status: 503, body: {} }, 'try-later', false],
    ['a network error', { networkError: 'Failed to fetch' }, 'try-later', false],
  ])('%s: %s', (_, answer, kind, final) => {
    const verdict = classifyAnswer(answer);
    expect(verdict.kind).toBe(kind);
    expect(isFinal(verdict)).toBe(final);
  });

  it('keeps the receipt of a stored ballot', () => {
    expect(classifyAnswer({ status: 201, body: { ballot_id: 'b-2', reservations: [{ field: 'faces', tile: 'x', status: 'reserved' }] } })).toEqual({
      kind: 'stored',
      receipt: { ballot_id: 'b-2', reservations: [{ field: 'faces', tile: 'x', status: 'reserved' }] },
    });
  });

  it('keeps a refusal’s sentence and well-formed problems, and drops the rest', () => {
    const verdict = classifyAnswer({
      status: 422,
      body: { error: 'invalid_ballot', message: 'Some answers need another look.', problems: [{ path: 'email', message: 'is not valid.' }, { path: 3 }, null] },
    });
    expect(verdict).toEqual({
      kind: 'refused',
      status: 422,
      message: 'Some answers need another look.',
      problems: [{ path: 'email', message: 'is not valid.' }],
    });
  });

  it('says whether a try-later came with no answer at all (offline)', () => {
    expect(classifyAnswer({ networkError: 'x' })).toMatchObject({ offline: true });
    expect(classifyAnswer({ status: 503, body: null })).toMatchObject({ offline: false });
  });
});

describe('a refusal in the voter’s words', () => {
  const labels = { email: 'Email', affirm: 'I Affirm' };

  it.each<[string, { message?: string; problems: Array<{ path: string; message: string }> }, string[]]>([
    ['the sentence alone', { message: 'Survey form has expired!', problems: [] }, ['Survey form has expired!']],
    [
      'a field by its label',
      { message: 'Some answers need another look.', problems: [{ path: 'email', message: 'email is not valid.' }] },
      ['Some answers need another look.', 'Email: email is not valid.'],
    ],
    [
      'no form-data name or code for what is no field',
      { message: 'Sorry, this link is invalid!', problems: [{ path: 'secret', message: 'is not a valid personal link.' }] },
      ['Sorry, this link is invalid!'],
    ],
    [
      'a whole sentence about what is no field',
      { problems: [{ path: 'nominations[A][B][1]', message: 'That nominee is not on the list.' }] },
      ['That nominee is not on the list.'],
    ],
    [
      'a sentence that names its field, without the label again',
      { problems: [{ path: 'email', message: 'Email is not valid. Enter an address like name@example.org.' }] },
      ['Email is not valid. Enter an address like name@example.org.'],
    ],
    [
      'each line once',
      {
        message: 'x.',
        problems: [
          { path: 'affirm', message: 'is required.' },
          { path: 'affirm', message: 'is required.' },
        ],
      },
      ['x.', 'I Affirm: is required.'],
    ],
  ])('%s', (_, refusal, lines) => {
    expect(refusalLines(refusal, labels)).toEqual(lines);
  });
});
