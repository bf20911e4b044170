import { atom } from 'nanostores';

/** True once the voter has ticked 'I Affirm'. */
export const $affirmed = atom(false);

/** Ticks or unticks the affirmation. */
export function setAffirmed(value: boolean): void {
  $affirmed.set(value);
}
