import { atom } from 'nanostores';
import { FILL_SECONDS_NAME, MAX_FILL_SECONDS } from '../../survey/ballots/ballot-keys.ts';

// The voter's proof of an address (`verify: email` or `roster`) and when the ballot form became
// usable: both go with the ballot as form fields the ballot struct does not check (the API takes
// the proof out before it does, and checks the fill time itself).

/** The form-data name of the proof, as the survey API reads it. */
const PROOF_FIELD = 'verification';

/** The proof the survey API gave for the right code; undefined until the voter has proven an address. */
const $proof = atom<string | undefined>();

/** When the ballot form became usable (after any verification), in milliseconds; undefined before. */
const $formReadyAt = atom<number | undefined>();

/** Notes that the form is usable now, once: the fill time counts from here. */
export function markFormReady(now = Date.now()): void {
  if ($formReadyAt.get() === undefined) $formReadyAt.set(now);
}

/** Keeps the proof for the ballot and opens the form. */
export function proveVoter(proof: string, now = Date.now()): void {
  $proof.set(proof);
  $formReadyAt.set(undefined);
  markFormReady(now);
}

/** The entries the ballot carries besides its answers: the proof, and the whole seconds from the form becoming usable to Submit. */
export function proofEntries(now = Date.now()): Array<[string, string]> {
  const entries: Array<[string, string]> = [];
  const proof = $proof.get();
  if (proof) entries.push([PROOF_FIELD, proof]);
  const ready = $formReadyAt.get();
  if (ready !== undefined) entries.push([FILL_SECONDS_NAME, String(Math.min(MAX_FILL_SECONDS, Math.max(0, Math.round((now - ready) / 1000))))]);
  return entries;
}
