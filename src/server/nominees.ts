import type { LoadedSurvey } from '../survey/loader.ts';
import { loadNominees } from '../survey/nominee-file.ts';
import type { Nominee } from '../survey/nominee.struct.ts';
import { createNomineeEngine, type NomineeEngine } from './nominee-engine.ts';

/** A survey's nominee list as the server holds it: lookup by id for ballots, and the local search engine. */
export interface NomineeIndex {
  /** The number of nominees. */
  readonly size: number;
  /** True when the id names a nominee of this survey: a ballot may name no other. */
  has(id: string): boolean;
  /** The nominee with this id, or undefined. */
  get(id: string): Nominee | undefined;
  /** The local search engine over the list, built on first use. */
  engine(): NomineeEngine;
}

const cache = new Map<string, NomineeIndex>();

/**
 * The nominee list of a survey, read and validated from its file once per process and cached
 * (by the survey's folder). Throws a ConfigError naming file, line and column for a bad row.
 */
export function nomineeIndex(survey: LoadedSurvey): NomineeIndex {
  let index = cache.get(survey.dir);
  if (!index) {
    const nominees = loadNominees(survey);
    const byId = new Map(nominees.map((nominee) => [nominee.id, nominee]));
    let engine: NomineeEngine | undefined;
    index = {
      size: nominees.length,
      has: (id) => byId.has(id),
      get: (id) => byId.get(id),
      engine: () => (engine ??= createNomineeEngine(nominees)),
    };
    cache.set(survey.dir, index);
  }
  return index;
}

/**
 * Reads every survey's list and builds its search engine now, so that the first voter does
 * not wait for it. A list that cannot be read is logged and skipped: its survey's searches fail, not the others'.
 */
export function warmNomineeIndexes(surveys: readonly LoadedSurvey[]): void {
  for (const survey of surveys) {
    try {
      nomineeIndex(survey).engine().search('a');
    } catch (error) {
      console.error(error instanceof Error ? error.message : error);
    }
  }
}
