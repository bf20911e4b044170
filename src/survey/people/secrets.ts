import type { PersonValues } from '../config/config.struct.ts';
import { DEMO_SECRET } from './link.ts';

/** The fewest characters a personal secret may have: it is the only key to a person's ballot. */
const MIN_SECRET_LENGTH = 12;

/** How an operator makes a secret that passes the rule. */
export const SECRET_ADVICE = `node -e "console.log(crypto.randomBytes(12).toString('base64url'))"`;

/** Words that make a secret guessable, lower-case: anyone trying links tries these first. */
const GUESSABLE_WORDS = ['password', 'passwort', 'secret', 'qwerty', 'azerty', 'letmein', 'welcome', 'admin', 'changeme', 'iloveyou', 'abc123', 'default'];

/**
 * The person a secret names in a prepopulation map, looked up as the map's own key only, so
 * that `constructor`, `__proto__` or `toString` never name an inherited value.
 */
export function personOf(prepopulation: Readonly<Record<string, PersonValues>>, secret: string | undefined): PersonValues | undefined {
  return secret !== undefined && Object.hasOwn(prepopulation, secret) ? prepopulation[secret] : undefined;
}

/** True when each character's code is one more (or one less) than the last: `123456789012`, `abcdefghijkl`. */
function isSequence(text: string): boolean {
  const codes = [...text.toLowerCase()].map((c) => c.codePointAt(0)!);
  const steps = new Set(codes.slice(1).map((code, i) => code - codes[i]));
  // Digits wrap (…8, 9, 0, 1…): a step of -9 continues an ascending run, +9 a descending one.
  const up = [...steps].every((step) => step === 1 || step === -9);
  const down = [...steps].every((step) => step === -1 || step === 9);
  return up || down;
}

/**
 * Why a personal secret is too weak to be a link's only key, in words for the survey's author,
 * or undefined when it is strong enough: shorter than 12 characters, fewer than 4 different
 * characters (`aaaaaaaaaaaa`, `abababababab`), a run (`123456789012`) or containing a word
 * people try first (`password…`). The demo secret is not personal and is never asked.
 */
export function secretWeakness(secret: string): string | undefined {
  if (secret === DEMO_SECRET) return undefined;
  if (secret.length < MIN_SECRET_LENGTH) return `is shorter than ${MIN_SECRET_LENGTH} characters`;
  if (new Set(secret.toLowerCase()).size < 4) return 'repeats too few different characters';
  if (isSequence(secret)) return 'is a run of consecutive characters';
  const word = GUESSABLE_WORDS.find((guess) => secret.toLowerCase().includes(guess));
  if (word) return `contains "${word}", which is tried first`;
  return undefined;
}
