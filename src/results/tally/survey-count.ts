import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import { readPseudonymKey } from '../voters/pseudonym-key.ts';
import { ballotExclusions } from './tally.repository.ts';
import { rankTally, tallyCsv, type SubcategoryResult, type Threshold } from './tally-report.ts';
import { tallySurvey, type Tally, type TallyInput } from './tally.ts';

// One count of a survey as `results tally` makes it, for the command line and the console alike:
// the operators' exclusions and the survey's pseudonym key read as the command reads them, the
// ranking and the CSV from the same functions, so that the two never give different figures.

/** A survey's count: the tally, its ranking per sub-category and the CSV `results tally` writes. */
export interface SurveyCount {
  tally: Tally;
  results: SubcategoryResult[];
  csv: string;
}

/** The ranking and the CSV of a tally made already (a publication's), as `results tally` would write them. */
export function countOf(survey: TallyInput['survey'], tally: Tally, threshold?: Threshold): SurveyCount {
  const results = rankTally(survey.config, tally, threshold);
  return { tally, results, csv: tallyCsv(results, tally) };
}

/** Counts the survey's ballots as `results tally` does, with the exclusions recorded and the pseudonym key of a purged survey. */
export async function countSurvey(
  db: Kysely<Database>,
  input: Pick<TallyInput, 'survey' | 'nominees' | 'prepopulation' | 'onExclusion' | 'onProgress'>,
  threshold?: Threshold,
): Promise<SurveyCount> {
  const tally = await tallySurvey(db, {
    ...input,
    pseudonymKey: readPseudonymKey(input.survey),
    excludedBallots: await ballotExclusions(db, input.survey.config.project_id),
  });
  return countOf(input.survey, tally, threshold);
}
