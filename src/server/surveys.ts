import { statSync } from 'node:fs';
import { loadAllSurveys, loadPrepopulation, prepopulationFile, type LoadedSurvey } from '../survey/loader.ts';
import type { PersonValues } from '../survey/config.struct.ts';

/** A survey as the API holds it: its configuration and, private to the server, its prepopulation map. */
export interface ServerSurvey extends LoadedSurvey {
  prepopulation: Record<string, PersonValues>;
}

interface Entry {
  survey: ServerSurvey;
  /** The prepopulation file and its modification time when read; none for a map inside survey.yaml. */
  file?: string;
  mtimeMs?: number;
}

let byProjectId: Map<string, Entry> | undefined;

const modified = (file: string) => statSync(file, { throwIfNoEntry: false })?.mtimeMs;

function entryOf(survey: LoadedSurvey): Entry {
  const file = typeof survey.config.prepopulation === 'string' ? prepopulationFile(survey) : undefined;
  return { survey: { ...survey, prepopulation: loadPrepopulation(survey) }, file, mtimeMs: file ? modified(file) : undefined };
}

/** Every survey by project_id, loaded from `SURVEYS_DIR` once per process. */
function registry(): Map<string, Entry> {
  byProjectId ??= new Map(loadAllSurveys().map((survey) => [survey.config.project_id, entryOf(survey)]));
  return byProjectId;
}

/**
 * The survey with this project_id, or undefined. Its prepopulation is read again when its file
 * has changed (`invite` rewrites it), so new personal links open without a restart; a file
 * that no longer reads keeps the last good map, and says why in the log.
 */
export function findSurvey(projectId: string): ServerSurvey | undefined {
  const entry = registry().get(projectId);
  const file = entry?.file && prepopulationFile(entry.survey);
  if (entry && file && (file !== entry.file || modified(file) !== entry.mtimeMs)) {
    try {
      Object.assign(entry, entryOf(entry.survey));
    } catch (error) {
      Object.assign(entry, { file, mtimeMs: modified(file) });
      console.error(`Keeping the previous personal links of ${projectId}: ${(error as Error).message}`);
    }
  }
  return entry?.survey;
}

/** How many surveys the API serves; loading them here makes a broken survey file fail the start. */
export function surveyCount(): number {
  return registry().size;
}
