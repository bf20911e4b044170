import { loadAllSurveys, loadPrepopulation, type LoadedSurvey } from '../survey/loader.ts';
import type { PersonValues } from '../survey/config.struct.ts';

/** A survey as the API holds it: its configuration and, private to the server, its prepopulation map. */
export interface ServerSurvey extends LoadedSurvey {
  prepopulation: Record<string, PersonValues>;
}

let byProjectId: Map<string, ServerSurvey> | undefined;

/** Every survey by project_id, loaded from `SURVEYS_DIR` once per process. */
function registry(): Map<string, ServerSurvey> {
  byProjectId ??= new Map(
    loadAllSurveys().map((survey) => [survey.config.project_id, { ...survey, prepopulation: loadPrepopulation(survey) }]),
  );
  return byProjectId;
}

/** The survey with this project_id, or undefined. */
export function findSurvey(projectId: string): ServerSurvey | undefined {
  return registry().get(projectId);
}

/** How many surveys the API serves; loading them here makes a broken survey file fail the start. */
export function surveyCount(): number {
  return registry().size;
}
