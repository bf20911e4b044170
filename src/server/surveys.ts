import { loadAllSurveys, loadPrepopulation, privateDir, surveysDir, type LoadedSurvey } from '../survey/loader.ts';
import type { PersonValues } from '../survey/config.struct.ts';
import { folderStamp, followFiles } from './file-stamp.ts';
import { warmNomineeIndexes } from './search/nominees.ts';

/** A survey as the API holds it: its configuration and, private to the server, its prepopulation map. */
export interface ServerSurvey extends LoadedSurvey {
  prepopulation: Record<string, PersonValues>;
}

let follower: (() => Map<string, ServerSurvey>) | undefined;

/** The files the surveys are read from: `SURVEYS_DIR`, and `PEERVOTE_PRIVATE_DIR` where the prepopulation files may live. */
function surveysStamp(): string {
  const outside = privateDir();
  return outside ? `${folderStamp(surveysDir())}\n${folderStamp(outside)}` : folderStamp(surveysDir());
}

/**
 * Every survey by project_id, read from `SURVEYS_DIR` (and the private folder) and read again
 * (at most once a second) when a file there changes, so that a new survey, a changed one or a
 * roster's new personal links (`invite`) take ballots at once, without a restart. Nothing but
 * the files decides, so every instance of the API agrees.
 */
function registry(): Map<string, ServerSurvey> {
  follower ??= followFiles(surveysStamp, () => {
    const surveys = loadAllSurveys().map((survey): ServerSurvey => ({ ...survey, prepopulation: loadPrepopulation(survey) }));
    // Built after this request, not while a voter waits for their first search.
    setTimeout(() => warmNomineeIndexes(surveys), 0).unref?.();
    return new Map(surveys.map((survey) => [survey.config.project_id, survey]));
  });
  return follower();
}

/** The survey with this project_id, or undefined. */
export function findSurvey(projectId: string): ServerSurvey | undefined {
  return registry().get(projectId);
}

/** Every survey the API serves. */
export function allServerSurveys(): ServerSurvey[] {
  return [...registry().values()];
}

/** How many surveys the API serves; loading them here makes a broken survey file fail the start. */
export function surveyCount(): number {
  return registry().size;
}
