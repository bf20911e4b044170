import { beforeEach, describe, expect, it } from 'vitest';
import { $nominations, clearNominee, pickNominee, duplicateNote } from '../../../src/ballot/nominations/nominations.ts';
import { slotName } from '../../../src/survey/ballots/ballot-keys.ts';
import { $voteCount, recountVotes } from '../../../src/ballot/writeins/writeins.ts';

const cardiology = (n: number) => slotName('Heart and Lungs', 'Cardiology', n);
const pulmonology = (n: number) => slotName('Heart and Lungs', 'Pulmonology', n);

describe('the nominations store', () => {
  beforeEach(() => $nominations.set({}));

  it('stores a picked nominee under the slot name', () => {
    expect(pickNominee(cardiology(1), 'n1')).toEqual({ ok: true });
    expect($nominations.get()).toEqual({ 'nominations[Heart and Lungs][Cardiology][1]': 'n1' });
  });

  it('clears a slot whose nominee is already in another slot of the same sub-category', () => {
    pickNominee(cardiology(1), 'n1');
    pickNominee(cardiology(2), 'n2');
    expect(pickNominee(cardiology(2), 'n1')).toEqual({ ok: false, duplicateOf: cardiology(1) });
    expect($nominations.get()).toEqual({ [cardiology(1)]: 'n1' });
  });

  it('allows the same nominee in another sub-category', () => {
    pickNominee(cardiology(1), 'n1');
    expect(pickNominee(pulmonology(1), 'n1')).toEqual({ ok: true });
    expect($nominations.get()).toEqual({ [cardiology(1)]: 'n1', [pulmonology(1)]: 'n1' });
    recountVotes();
    expect($voteCount.get()).toBe(2);
  });

  it('allows picking the same nominee again in the same slot', () => {
    pickNominee(cardiology(1), 'n1');
    expect(pickNominee(cardiology(1), 'n1')).toEqual({ ok: true });
  });

  it('clears a slot', () => {
    pickNominee(cardiology(3), 'n3');
    clearNominee(cardiology(3));
    clearNominee(cardiology(2));
    expect($nominations.get()).toEqual({});
  });

  it('says which slot already holds the nominee', () => {
    expect(duplicateNote('Ann Lee', cardiology(2))).toBe('Ann Lee is already your Second Nomination for Cardiology.');
  });
});
