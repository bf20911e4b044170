import { readServerConfig } from '../../server/config.ts';
import { peopleKey, peopleOf } from '../../server/people/people.repository.ts';
import { loadSurvey } from '../../survey/config/loader.ts';
import { loadNominees } from '../../survey/nominees/nominee-file.ts';
import { openOperatorDatabase } from '../operator.ts';
import { publishResults } from '../publish/publish.ts';
import { countOf, countSummary, countSurvey, type CountJob, type CountedInProcess, type SurveyCount } from './survey-count.ts';

// The console's count, in a process of its own (countInProcess): the survey, its nominees and its
// people read as `npm run results` reads them, from the server's settings, and counted by the
// function `results tally` calls, or published by the one `results publish` calls. It sends the
// server its count, or why it failed, and ends: the memory of a million ballots' count goes with it.

const job = JSON.parse(process.argv[2] ?? '{}') as CountJob;

/** Sends the server its answer, resolving once it is written: a count's CSV may take a while, and the channel closes after it. */
function answer(message: CountedInProcess | { error: string }): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) resolve();
    else process.send(message, undefined, {}, () => resolve());
  });
}
const config = readServerConfig();
const { db } = await openOperatorDatabase(config);
try {
  const survey = loadSurvey(job.slug);
  const inputs = { survey, nominees: loadNominees(survey), prepopulation: await peopleOf(db, survey.config.project_id, peopleKey(config)) };
  let count: SurveyCount | undefined;
  if (job.kind === 'count') count = await countSurvey(db, inputs);
  else
    await publishResults(db, {
      ...inputs,
      at: job.at ? new Date(job.at) : undefined,
      onTally: (tally) => {
        count = countOf(survey, tally);
      },
    });
  if (!count) throw new Error('The publication gave no count.');
  await answer({ csv: count.csv, summary: countSummary(count) } satisfies CountedInProcess);
} catch (error) {
  await answer({ error: error instanceof Error ? error.message : String(error) });
  process.exitCode = 1;
} finally {
  await db.destroy();
  process.disconnect?.();
}
