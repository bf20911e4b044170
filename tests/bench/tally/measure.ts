// One measured run, in a process of its own so that its peak memory is its own: tallies (or
// exports, or finds the signals of, or writes the report of) the demo survey in the database at DATA_DIR and prints {"ms", "cpuMs", "rssMB", "heapMB",
// "liveMB", "forcedGcMs", "ballots"} as JSON. ms is the command's time, less the full collections
// this script forces to see the live heap (forcedGcMs). heapMB is the largest JavaScript heap seen, garbage included;
// liveMB the largest heap right after a full collection (run with --expose-gc), what the
// command really holds: that is the figure that must not grow with the ballots. cpuMs is the
// processor time it took, user and system: on a shared machine, steadier than the time.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { loadPrepopulation, loadSurvey } from '../../../src/survey/config/loader.ts';
import { loadNominees } from '../../../src/survey/nominees/nominee-file.ts';
import { readServerConfig } from '../../../src/server/config.ts';
import { countBallots } from '../../../src/results/ballots/ballots.repository.ts';
import { openOperatorDatabase } from '../../../src/results/operator.ts';
import { tallySurvey } from '../../../src/results/tally/tally.ts';
import { rankTally, tallyCsv, tallySummary } from '../../../src/results/tally/tally-report.ts';
import { exportBallots } from '../../../src/results/export/export.ts';
import { reportCommand, signalsCommand } from '../../../bin/lib/integrity-commands.ts';

const what = process.argv[2] ?? 'tally';
const survey = loadSurvey('top-doctors-demo');
const nominees = loadNominees(survey);
const prepopulation = loadPrepopulation(survey);
const { db } = await openOperatorDatabase(readServerConfig());
let heap = 0;
let live = 0;
let nextCollection = 0;
let nextTimedCollection = 0;
const collect = (globalThis as { gc?: () => void }).gc;
// A full collection every 50,000 ballots (and after the first page), or, for the commands sampled
// by a timer, every 2 seconds: often enough to see the live heap, rarely enough not to slow the
// run nor to swell what is measured (collected ten times a second, the signals' peak resident
// memory was some 60 MB above that of the command run alone).
// getHeapStatistics rather than memoryUsage, which reads the resident set from /proc each call: a page costs microseconds, not a third of a millisecond.
const used = () => getHeapStatistics().used_heap_size;
// The time these collections take is the bench's, not the command's: it is left out of `ms`.
let collecting = 0;
const fullCollection = () => {
  const t0 = performance.now();
  collect?.();
  collecting += performance.now() - t0;
  live = Math.max(live, used());
};
const sample = (ballots?: number) => {
  heap = Math.max(heap, used());
  if (!collect) return;
  if (ballots === undefined) {
    if (performance.now() < nextTimedCollection) return;
    nextTimedCollection = performance.now() + 2000;
    fullCollection();
  } else if (ballots >= nextCollection) {
    fullCollection();
    nextCollection = ballots + 50_000;
  }
};
const started = performance.now();
const cpuAtStart = process.cpuUsage();
let ballots: number;
let summary = '';
if (what === 'signals' || what === 'report') {
  // The commands as `npm run results` runs them, their output to a file beside the database; the
  // detectors run in one synchronous stretch, so the heap is sampled between the pages read and after.
  const timer = setInterval(() => sample(), 100);
  const out = path.join(process.env.DATA_DIR ?? '.', `${what}.out`);
  await (what === 'signals' ? signalsCommand : reportCommand)({ db, survey, nominees, prepopulation, options: { quiet: true, out }, rest: [] });
  clearInterval(timer);
  ballots = await countBallots(db, survey.config.project_id);
} else if (what === 'export') {
  let bytes = 0;
  ballots = await exportBallots(db, { survey, nominees, format: 'csv', write: (chunk) => void (bytes += chunk.length), onProgress: sample });
} else {
  const tally = await tallySurvey(db, { survey, nominees, prepopulation, onProgress: sample });
  const results = rankTally(survey.config, tally, { top: 3 });
  tallyCsv(results);
  summary = tallySummary(results, tally, 3)
    .split('\n')
    .filter((line) => /^(Ballots|Excluded|Write-ins)/.test(line))
    .join('\n');
  ballots = tally.totals.ballots;
}
const ms = performance.now() - started - collecting;
heap = Math.max(heap, used());
fullCollection();
await db.destroy();
const rssMB = process.resourceUsage().maxRSS / 1024;
const cpu = process.cpuUsage(cpuAtStart);
console.log(
  JSON.stringify({
    ms: Math.round(ms),
    forcedGcMs: Math.round(collecting),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    rssMB: Math.round(rssMB),
    heapMB: Math.round(heap / 1048576),
    liveMB: Math.round(live / 1048576),
    ballots,
    summary,
  }),
);
