import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { prepopulationFile, privateDir, type LoadedSurvey } from '../../survey/config/loader.ts';
import { OperatorError } from '../operator.ts';

/** The file that holds a survey's pseudonym key: beside its prepopulation file, in `PEERVOTE_PRIVATE_DIR/<slug>/` when that is set. */
export function pseudonymKeyFile(survey: LoadedSurvey): string {
  return path.join(path.dirname(prepopulationFile(survey, privateDir() !== undefined)), 'pseudonym.key');
}

/**
 * The survey's key for pseudonymous voter keys (HMAC), or undefined before any purge made one.
 * Kept apart from the database, so that a copy of the database alone cannot test addresses
 * or licenses against the keys.
 */
export function readPseudonymKey(survey: LoadedSurvey): Buffer | undefined {
  const file = pseudonymKeyFile(survey);
  if (!existsSync(file)) return undefined;
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
  if (key.length < 32) throw new OperatorError(`${file} is not a pseudonym key (expected 32 random bytes in base64url); restore it from the backup.`);
  return key;
}

/** The survey's pseudonym key, made (256 random bits, readable by the owner only) when it has none yet. */
export function pseudonymKey(survey: LoadedSurvey): Buffer {
  const existing = readPseudonymKey(survey);
  if (existing) return existing;
  const file = pseudonymKeyFile(survey);
  const key = randomBytes(32);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${key.toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
