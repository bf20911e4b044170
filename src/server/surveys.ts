import { loadAllSurveys, privateDir, surveysDir, type LoadedSurvey } from '../survey/config/loader.ts';
import type { PersonValues } from '../survey/config/config.struct.ts';
import { DEMO_SECRET } from '../survey/people/link.ts';
import { folderStamp, followFiles } from './file-stamp.ts';
import { OPERATORS_FILE_NAME } from '../survey/operators/operators-file.ts';
import { warmNomineeIndexes } from './search/nominees.ts';
import { serverConfig } from './config.ts';
import { database } from './db/database.ts';
import { importPeople } from './people/people-import.ts';
import { peopleKey, personBySecret } from './people/people.repository.ts';

/** A survey as the API holds it: its configuration; its people are in the database (src/server/people/). */
export type ServerSurvey = LoadedSurvey;

let follower: ((withinMs?: number) => Map<string, ServerSurvey>) | undefined;

/** The operators file, which the console follows on its own (src/server/console/operators.ts): a change of it reads no survey again. */
const NOT_SURVEY_FILES = new Set([OPERATORS_FILE_NAME]);

/** The reading of the surveys' people into the database that the last change of their files began. */
let peopleRead: Promise<void> = Promise.resolve();

/** The files the surveys are read from: `SURVEYS_DIR`, and `PEERVOTE_PRIVATE_DIR` where the prepopulation files may live. */
function surveysStamp(): string {
  const outside = privateDir();
  const own = folderStamp(surveysDir(), NOT_SURVEY_FILES);
  return outside ? `${own}\n${folderStamp(outside, NOT_SURVEY_FILES)}` : own;
}

/**
 * Reads each survey's prepopulation into the `people` table, one survey after the other, after
 * the reading before: off the request path, and only where its text changed (a file `invite` has
 * written is not read again). A broken prepopulation leaves that survey's people as they were.
 */
function readPeople(surveys: readonly ServerSurvey[]): Promise<void> {
  peopleRead = peopleRead.then(async () => {
    const { db } = await database();
    const key = peopleKey(serverConfig());
    for (const survey of surveys) {
      try {
        await importPeople(db, survey, key);
      } catch (error) {
        console.error(`Kept the people of ${survey.slug} as they were: ${error instanceof Error ? error.message : error}`);
      }
    }
  });
  return peopleRead;
}

/**
 * Every survey by project_id, read from `SURVEYS_DIR` (and the private folder) and read again
 * when a file there changes (looked at most once a second, or `withinMs`), so that a new survey,
 * a changed one or a roster's new personal links take ballots at once, without a restart. Nothing but
 * the files decides, so every instance of the API agrees.
 */
function registry(withinMs?: number): Map<string, ServerSurvey> {
  follower ??= followFiles(surveysStamp, () => {
    const surveys = loadAllSurveys();
    // Built after this request, not while a voter waits for their first search.
    setTimeout(() => warmNomineeIndexes(surveys), 0).unref?.();
    void readPeople(surveys);
    return new Map(surveys.map((survey) => [survey.config.project_id, survey]));
  });
  return follower(withinMs);
}

/** The survey with this project_id, or undefined. */
export function findSurvey(projectId: string): ServerSurvey | undefined {
  return registry().get(projectId);
}

/**
 * The person a personal link's secret names, by one lookup in the `people` table, and the survey
 * as it is held: when the secret names no one, the API looks at its files again first (their
 * stamps: a few dozen stat calls, whatever the roster's size) and waits for a changed
 * prepopulation to be read, so that a link written into the file by hand works at once (a link
 * `invite` writes is in the table before its file). The demo link names no one.
 */
export async function personOfLink(survey: ServerSurvey, secret: string): Promise<{ survey: ServerSurvey; person: PersonValues | undefined }> {
  if (secret === DEMO_SECRET) return { survey, person: undefined };
  const { db } = await database();
  const person = await personBySecret(db, survey.config.project_id, secret);
  if (person) return { survey, person };
  const now = registry(0).get(survey.config.project_id) ?? survey;
  await peopleRead;
  return { survey: now, person: await personBySecret(db, now.config.project_id, secret) };
}

/** The person a personal link's secret names now, or undefined: for a ballot's receipt, mailed later. */
export async function personOfSecret(projectId: string, secret: string | null | undefined): Promise<PersonValues | undefined> {
  if (!secret) return undefined;
  const { db } = await database();
  return personBySecret(db, projectId, secret);
}

/** Every survey the API serves. */
export function allServerSurveys(): ServerSurvey[] {
  return [...registry().values()];
}

/** How many surveys the API serves; loading them here makes a broken survey file fail the start. */
export function surveyCount(): number {
  return registry().size;
}
