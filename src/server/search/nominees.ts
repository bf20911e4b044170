import path from 'node:path';
import type { LoadedSurvey } from '../../survey/config/loader.ts';
import { loadNominees } from '../../survey/nominees/nominee-file.ts';
import type { Nominee } from '../../survey/nominees/nominee.struct.ts';
import { createNomineeEngine, type NomineeEngine } from './nominee-engine.ts';
import { fileStamp, followFiles } from '../file-stamp.ts';

/** A survey's nominee list as the server holds it: lookup by id for ballots, and the local search engine. */
export interface NomineeIndex {
  /** The number of nominees. */
  readonly size: number;
  /** Every nominee, in the file's order. */
  readonly list: readonly Nominee[];
  /** True when the id names a nominee of this survey: a ballot may name no other. */
  has(id: string): boolean;
  /** The nominee with this id, or undefined. */
  get(id: string): Nominee | undefined;
  /** The local search engine over the list, built on first use. */
  engine(): NomineeEngine;
}

const cache = new Map<string, () => NomineeIndex>();

function readIndex(survey: LoadedSurvey): NomineeIndex {
  const nominees = loadNominees(survey);
  const byId = new Map(nominees.map((nominee) => [nominee.id, nominee]));
  let engine: NomineeEngine | undefined;
  return {
    size: nominees.length,
    list: nominees,
    has: (id) => byId.has(id),
    get: (id) => byId.get(id),
    engine: () => (engine ??= createNomineeEngine(nominees)),
  };
}

/**
 * The nominee list of a survey, read and validated from its file, cached by the survey's
 * folder and read again when the file changes (checked at most once a second), so that
 * `writeins publish` or a new list is searched and accepted without a restart. Throws a
 * ConfigError naming file, line and column for a bad row.
 */
export function nomineeIndex(survey: LoadedSurvey): NomineeIndex {
  const file = path.join(survey.dir, survey.config.nominees ?? '');
  const key = `${survey.dir}\n${file}`;
  let follow = cache.get(key);
  if (!follow) {
    // A list that fails its first read is not kept, so the next request reads it again.
    const first = readIndex(survey);
    let served = false;
    follow = followFiles(
      () => fileStamp(file),
      () => (served ? readIndex(survey) : ((served = true), first)),
    );
    cache.set(key, follow);
  }
  return follow();
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
