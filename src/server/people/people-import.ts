import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { PersonValues, SurveyConfig } from '../../survey/config/config.struct.ts';
import { ConfigError } from '../../survey/errors.ts';
import { prepopulationFile, readPrepopulation, type LoadedSurvey } from '../../survey/config/loader.ts';
import { peopleDigest, replacePeople } from './people.repository.ts';

// The prepopulation (a file, or a map in survey.yaml) is the people's import and export format; the
// `people` table is what the API and the commands read. A survey's rows are read from it again only
// when its text (or the licence field its rows are keyed by) has changed since they were.

/**
 * The digest that says which source a survey's people were read from: the licence field and the
 * prepopulation's text (the file's, or the inline map's as JSON; '' for none).
 */
export function peopleSourceDigest(config: Pick<SurveyConfig, 'license_field'>, text: string): string {
  return createHash('sha256').update(`${config.license_field}\u0000${text}`).digest('hex');
}

/** The prepopulation's text as the digest takes it; the file is read off the event loop. */
async function sourceText(survey: LoadedSurvey): Promise<string> {
  const source = survey.config.prepopulation;
  if (source === undefined) return '';
  if (typeof source !== 'string') return JSON.stringify(source);
  try {
    return await readFile(prepopulationFile(survey), 'utf8');
  } catch (error) {
    // A missing or unreadable file is reported by the reading itself, with its advice.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return '\u0000missing';
  }
}

/**
 * Reads a survey's prepopulation into the `people` table when it differs from the one the rows
 * were read from (a file `invite` has just written is not read again: invite wrote the rows);
 * true when it read it. Throws a ConfigError naming the problems of a broken prepopulation, and
 * then leaves the rows as they were.
 */
export async function importPeople(db: Kysely<Database>, survey: LoadedSurvey, key: Buffer, now = new Date()): Promise<boolean> {
  const digest = peopleSourceDigest(survey.config, await sourceText(survey));
  if ((await peopleDigest(db, survey.config.project_id)) === digest) return false;
  const { map, problems } = survey.config.prepopulation === undefined ? { map: {} as Record<string, PersonValues>, problems: [] } : readPrepopulation(survey);
  if (problems.length) throw new ConfigError(problems);
  await replacePeople(db, survey.config.project_id, map, { digest, licenceField: survey.config.license_field, key, now });
  return true;
}
