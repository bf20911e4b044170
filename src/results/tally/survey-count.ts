import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { CountSummary } from '../../survey/operators/console-views.ts';
import { readPseudonymKey } from '../voters/pseudonym-key.ts';
import { DEFAULT_TALLY, EXCLUSION_REASONS, reasonText } from './rules.ts';
import { ballotExclusions } from './tally.repository.ts';
import { rankTally, tallyCsv, type SubcategoryResult, type Threshold } from './tally-report.ts';
import { tallySurvey, type Tally, type TallyInput } from './tally.ts';

// One count of a survey as `results tally` makes it, for the command line and the console alike:
// the operators' exclusions and the survey's pseudonym key read as the command reads them, the
// ranking and the CSV from the same functions, so that the two never give different figures. The
// console counts in a process of its own (survey-count.process.ts), so that a million ballots'
// count never holds up the server's requests, and its memory goes when it ends.

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

/** The leaders of each sub-category a count's summary keeps; the CSV has every nominee. */
const LEADERS_KEPT = 10;

/** What the console keeps of a count for its page: the totals, the exclusions in words, each sub-category's leaders. */
export function countSummary(count: SurveyCount): CountSummary {
  const { tally, results } = count;
  const rules = tally.rules ?? DEFAULT_TALLY;
  const words = (reason: (typeof EXCLUSION_REASONS)[number]) => reason.replaceAll('_', ' ');
  return {
    ballots: tally.totals.ballots,
    ballotsCounted: tally.totals.ballotsCounted,
    ballotsReplaced: tally.totals.ballotsReplaced,
    votesCounted: tally.totals.votesCounted,
    excluded: EXCLUSION_REASONS.filter((reason) => tally.totals.excluded[reason]).map((reason) => ({
      reason: words(reason),
      votes: tally.totals.excluded[reason] ?? 0,
      why: reasonText(reason, rules),
    })),
    flagged: (tally.flags ?? [])
      .map((reason) => ({ reason: words(reason), votes: tally.rows.reduce((n, row) => n + (row.flagged?.[reason] ?? 0), 0), why: reasonText(reason, rules) }))
      .filter((flag) => flag.votes > 0),
    writeInsPending: tally.totals.writeInsPending,
    writeInsRejected: tally.totals.writeInsRejected,
    subcategories: results.map((sub) => {
      const counted = sub.rows.filter((row) => row.counted > 0);
      return {
        group: sub.group,
        subcategory: sub.subcategory,
        counted: sub.counted,
        excluded: sub.excluded,
        nominees: counted.length,
        leaders: counted.slice(0, LEADERS_KEPT).map((row) => ({
          rank: row.rank ?? 0,
          nomineeId: row.nomineeId,
          name: row.nomineeName,
          counted: row.counted,
          share: (row.share * 100).toFixed(1),
          winner: row.winner,
        })),
      };
    }),
  };
}

/** A count the console asks its process for: a survey's count as `results tally` makes it, or its publication as `results publish` writes it, at a time. */
export interface CountJob {
  kind: 'count' | 'publish';
  slug: string;
  /** The publication's time (ISO 8601). */
  at?: string;
}

/** What the process gives back: the CSV `results tally` writes, and the page's summary. */
export interface CountedInProcess {
  csv: string;
  summary: CountSummary;
}

/**
 * Runs a count (or a publication) in a process of its own, on the server's settings and with a
 * database connection of its own, as `npm run results` would (its Node options too): the
 * server's requests go on meanwhile. Rejects with the process's error, or when it ends without a count.
 */
export function countInProcess(job: CountJob): Promise<CountedInProcess> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./survey-count.process.ts', import.meta.url)), [JSON.stringify(job)], {
      execArgv: ['--max-semi-space-size=32'],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let answer: CountedInProcess | { error: string } | undefined;
    child.once('message', (message: CountedInProcess | { error: string }) => {
      answer = message;
    });
    child.once('error', reject);
    // 'close', not 'exit': a process may have ended before its last message is read.
    child.once('close', (code, signal) => {
      if (answer && 'csv' in answer) resolve(answer);
      else reject(new Error(answer?.error ?? `The count's process ended (${signal ?? `exit ${code}`}) without a count.`));
    });
  });
}
