import { licenseKey } from '../tally/identity-keys.ts';
import { validNpi } from '../../survey/people/verification.ts';

/**
 * What is wrong with a license number as a voter wrote it, or undefined when it passes: ten
 * digits (optionally after "NPI") are an NPI and must pass its check digit; any other license
 * must have 4 to 20 letters and digits, at least 3 of them digits, not all one character.
 */
export function licenseProblem(license: string): string | undefined {
  const key = licenseKey(license);
  if (!key) return undefined;
  const npi = /^(?:NPI)?(\d{10})$/.exec(key);
  if (npi) return validNpi(npi[1]) ? undefined : 'an NPI with a wrong check digit';
  if (key.length < 4) return 'too short for a license number';
  if (key.length > 20) return 'too long for a license number';
  if ((key.match(/\d/g) ?? []).length < 3) return 'too few digits for a license number';
  if (/^(.)\1+$/.test(key)) return 'one character repeated';
  return undefined;
}
