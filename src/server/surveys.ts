import { loadAllSurveys, loadPrepopulation, privateDir, surveysDir, type LoadedSurvey } from '../survey/config/loader.ts';
import type { PersonValues } from '../survey/config/config.struct.ts';
import { personOf } from '../survey/people/secrets.ts';
import { DEMO_SECRET } from '../survey/people/link.ts';
import { folderStamp, followFiles } from './file-stamp.ts';
import { OPERATORS_FILE_NAME } from '../survey/operators/operators-file.ts';
import { warmNomineeIndexes } from './search/nominees.ts';

/** A survey as the API holds it: its configuration and, private to the server, its prepopulation map. */
export interface ServerSurvey extends LoadedSurvey {
  prepopulation: Record<string, PersonValues>;
}

let follower: ((withinMs?: number) => Map<string, ServerSurvey>) | undefined;

/** The operators file, which the console follows on its own (src/server/console/operators.ts): a change of it reads no survey again. */
const NOT_SURVEY_FILES = new Set([OPERATORS_FILE_NAME]);

/** The files the surveys are read from: `SURVEYS_DIR`, and `PEERVOTE_PRIVATE_DIR` where the prepopulation files may live. */
function surveysStamp(): string {
  const outside = privateDir();
  const own = folderStamp(surveysDir(), NOT_SURVEY_FILES);
  return outside ? `${own}\n${folderStamp(outside, NOT_SURVEY_FILES)}` : own;
}

/**
 * Every survey by project_id, read from `SURVEYS_DIR` (and the private folder) and read again
 * when a file there changes (looked at most once a second, or `withinMs`), so that a new survey,
 * a changed one or a roster's new personal links (`invite`) take ballots at once, without a restart. Nothing but
 * the files decides, so every instance of the API agrees.
 */
function registry(withinMs?: number): Map<string, ServerSurvey> {
  follower ??= followFiles(surveysStamp, () => {
    const surveys = loadAllSurveys().map((survey): ServerSurvey => ({ ...survey, prepopulation: loadPrepopulation(survey) }));
    // Built after this request, not while a voter waits for their first search.
    setTimeout(() => warmNomineeIndexes(surveys), 0).unref?.();
    return new Map(surveys.map((survey) => [survey.config.project_id, survey]));
  });
  return follower(withinMs);
}

/** The survey with this project_id, or undefined. */
export function findSurvey(projectId: string): ServerSurvey | undefined {
  return registry().get(projectId);
}

/**
 * The person a personal link's secret names on the survey's roster, and the survey as it holds
 * them: when the secret is not on the roster held, the API looks at its files again first (their
 * stamps: a few dozen stat calls, whatever the roster's size), so that a link `invite` has just
 * written works at once rather than up to a second later. The demo link names no one, and never
 * makes the API look.
 */
export function personOfLink(survey: ServerSurvey, secret: string): { survey: ServerSurvey; person: PersonValues | undefined } {
  const person = personOf(survey.prepopulation, secret);
  if (person || secret === DEMO_SECRET) return { survey, person };
  const now = registry(0).get(survey.config.project_id) ?? survey;
  return { survey: now, person: personOf(now.prepopulation, secret) };
}

/** Every survey the API serves. */
export function allServerSurveys(): ServerSurvey[] {
  return [...registry().values()];
}

/** How many surveys the API serves; loading them here makes a broken survey file fail the start. */
export function surveyCount(): number {
  return registry().size;
}
