import { createHash, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { PersonValues } from '../../survey/config/config.struct.ts';
import { ConfigError } from '../../survey/errors.ts';
import { prepopulationFile, readPrepopulation, type LoadedSurvey } from '../../survey/config/loader.ts';
import { peopleDigest, replacePeople, type PeopleSource } from './people.repository.ts';
import { rosterColumns, type RosterSurvey } from '../../survey/people/roster-groups.ts';

// The prepopulation (a file, or a map in survey.yaml) is the people's import and export format; the
// `people` table is what the API and the commands read. A survey's rows are read from it again only
// when its text (or the licence field its rows are keyed by) has changed since they were.

/** People read in one piece at most: a larger file in invite's shape is read piece by piece, each written before the next is read. */
const PIECE = 500;

/**
 * The digest that says which source a survey's people were read from: the licence field, the
 * roster columns they are counted by, and the prepopulation's text (the file's, or the inline
 * map's as JSON; '' for none).
 */
export function peopleSourceDigest(config: RosterSurvey, text: string): string {
  return createHash('sha256')
    .update(`${config.license_field}\u0000${rosterColumns(config).join('\u0000')}\u0000\u0000${text}`)
    .digest('hex');
}

/** How replacePeople reads a survey's people from a source of this digest. */
export function peopleSource(config: RosterSurvey, digest: string, key: KeyObject, now: Date): PeopleSource {
  return { digest, licenceField: config.license_field, columns: rosterColumns(config), key, now };
}

/** The prepopulation's text as the digest takes it, or undefined when the file cannot be read; the file is read off the event loop. */
async function sourceText(survey: LoadedSurvey): Promise<string | undefined> {
  const source = survey.config.prepopulation;
  if (source === undefined) return '';
  if (typeof source !== 'string') return JSON.stringify(source);
  return readFile(prepopulationFile(survey), 'utf8').catch(() => undefined);
}

/**
 * A file's text cut into pieces of at most PIECE people each, at the lines that open a person;
 * undefined unless every line neither indented, blank nor a comment opens one (`secret:`), the
 * shape invite writes, in which a piece reads as the same people as in the whole.
 */
function piecesOf(text: string): string[] | undefined {
  const pieces: string[] = [];
  let start = 0;
  let people = 0;
  for (let at = 0; at < text.length; ) {
    const end = text.indexOf('\n', at);
    const next = end < 0 ? text.length : end + 1;
    const first = text[at];
    if (first !== ' ' && first !== '#' && first !== '\n') {
      if (text[(end < 0 ? text.length : end) - 1] !== ':') return undefined;
      if (people > 0 && people % PIECE === 0) {
        pieces.push(text.slice(start, at));
        start = at;
      }
      people++;
    }
    at = next;
  }
  pieces.push(text.slice(start));
  return pieces;
}

/** A piece with a problem, or a secret an earlier piece holds: the whole file is then read, for its problems placed. */
class PieceProblem extends Error {}

/** The people of each piece in turn, each checked as the whole file would be (readPrepopulation) and against the secrets before it. */
function* piecesRead(survey: LoadedSurvey, pieces: string[]): Generator<Record<string, PersonValues>> {
  const seen = new Set<string>();
  for (const piece of pieces) {
    const { map, problems } = readPrepopulation(survey, piece);
    if (problems.length) throw new PieceProblem();
    for (const secret of Object.keys(map)) {
      if (seen.has(secret)) throw new PieceProblem();
      seen.add(secret);
    }
    yield map;
  }
}

/**
 * Reads a survey's prepopulation into the `people` table when it differs from the one the rows
 * were read from (a file `invite` has just written is not read again: invite wrote the rows);
 * true when it read it. A file in invite's shape is read piece by piece between the writes, so
 * that neither its people nor the time to read them stand in one block. Throws a ConfigError
 * naming the problems of a broken prepopulation, and then leaves the rows as they were.
 */
export async function importPeople(db: Kysely<Database>, survey: LoadedSurvey, key: KeyObject, now = new Date()): Promise<boolean> {
  const text = await sourceText(survey);
  const digest = peopleSourceDigest(survey.config, text ?? '\u0000unreadable');
  if ((await peopleDigest(db, survey.config.project_id)) === digest) return false;
  // Checked again once the survey's row is held: invite may be writing these very people.
  const source = { ...peopleSource(survey.config, digest, key, now), unlessCurrent: true };
  const pieces = typeof survey.config.prepopulation === 'string' && text !== undefined ? piecesOf(text) : undefined;
  if (pieces) {
    try {
      return await replacePeople(db, survey.config.project_id, piecesRead(survey, pieces), source);
    } catch (error) {
      if (!(error instanceof PieceProblem)) throw error;
    }
  }
  const { map, problems } = survey.config.prepopulation === undefined ? { map: {}, problems: [] } : readPrepopulation(survey);
  if (problems.length) throw new ConfigError(problems);
  return replacePeople(db, survey.config.project_id, [map], source);
}
