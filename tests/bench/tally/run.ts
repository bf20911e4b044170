// Tally benchmark (a script, not a test): generates 10,000 and 1,000,000 ballots of the demo
// survey in fresh SQLite databases, then tallies each in a process of its own and prints the
// time and the peak memory: the resident set, the JavaScript heap with its garbage, and the
// heap that is live after a full collection, and the processor time of all its threads. The
// tally reads the ballots through one statement in a thread of its own, a page at a time, and
// keeps who has voted in a temporary SQLite file (another thread), so its live memory is the same
// for both sizes.
// Export, signals and report (the commands as `npm run results` runs them) are measured the same
// way. Each measurement runs `--runs` times (the median is shown): on a machine others share, one
// run says little.
//
// The budgets, for up to 1,000,000 ballots (larger runs are shown, not judged): each command at
// most 500 MB of peak resident memory, tally and export at most 10 s each. The script ends with a
// line per budget missed and a non-zero exit, or one line saying all were met.
//
//   npm run bench:tally -- [--ballots 10000,1000000] [--runs 3] [--only tally,export,signals,report]
//                             (or BENCH_SIZES=…); BENCH_KEEP=1 keeps the databases;
//                             BENCH_DB_DIR=DIR keeps each size's database in DIR/<size>/ and reuses it
//                             on the next run (a million ballots take minutes to generate; empty DIR after
//                             changing generate.ts or the migrations' tables);
//                             BENCH_HEAP_MB=N caps the measured processes' old-space heap (none by default:
//                             the figures are those of `npm run results`, which sets no cap)
//
// Before the verdict come `tally: N ballots in S s (R ballots/s)` and the like for each command and size.
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createDatabase, migrateToLatest } from '../../../src/server/db/database.ts';
import { loadSurvey } from '../../../src/survey/config/loader.ts';
import { loadNominees } from '../../../src/survey/nominees/nominee-file.ts';
import { generateBallots, VOTES_PER_BALLOT } from './generate.ts';
import { RESULTS_NODE_OPTIONS } from '../../support/results-cli.ts';

const { values: args } = parseArgs({ options: { ballots: { type: 'string' }, runs: { type: 'string' }, only: { type: 'string' } } });
const COMMANDS = ['tally', 'export', 'signals', 'report'];
const measured = args.only ? args.only.split(',') : COMMANDS;
const unknown = measured.filter((what) => !COMMANDS.includes(what));
if (unknown.length) throw new Error(`--only takes ${COMMANDS.join(', ')}; not ${unknown.join(', ')}.`);
/** The budgets at up to this many ballots. */
const BUDGET_BALLOTS = 1_000_000;
/** Peak resident memory of each command, in MB. */
const RSS_BUDGET_MB = 500;
/** Time of the commands that have one, in seconds. */
const TIME_BUDGET_S: Record<string, number> = { tally: 10, export: 10 };
const missed: string[] = [];
const sizes = (args.ballots ?? process.env.BENCH_SIZES ?? '10000,1000000').split(',').map(Number);
const runs = Math.max(1, Number(args.runs ?? 1));
const heapMB = process.env.BENCH_HEAP_MB;
const kept = process.env.BENCH_DB_DIR ? path.resolve(process.env.BENCH_DB_DIR) : undefined;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const last: string[] = [];
const nominees = loadNominees(loadSurvey('top-doctors-demo'));
const rows: string[] = [];

for (const size of sizes) {
  const dir = kept ? path.join(kept, String(size)) : mkdtempSync(path.join(tmpdir(), `peervote-bench-tally-${size}-`));
  // A kept database is whole once its marker is written, after the ballots.
  const marker = path.join(dir, 'generated');
  try {
    const file = path.join(dir, 'peervote.sqlite');
    const reused = kept !== undefined && existsSync(marker);
    if (kept && !reused) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
    }
    const { db } = createDatabase({ sqliteFile: file, sqliteSynchronous: 'NORMAL', pgPoolMax: 1 });
    await migrateToLatest(db);
    await db.destroy();
    if (reused) console.log(`${size.toLocaleString('en')} ballots: reusing ${file}`);
    else {
      const t0 = performance.now();
      generateBallots(file, size, nominees);
      if (kept) writeFileSync(marker, `${size}\n`);
      console.log(
        `${size.toLocaleString('en')} ballots (${(size * VOTES_PER_BALLOT).toLocaleString('en')} nomination slots) generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
    }
    for (const what of measured) {
      const results = Array.from({ length: runs }, () => {
        const output = execFileSync(
          process.execPath,
          [...RESULTS_NODE_OPTIONS, ...(heapMB ? [`--max-old-space-size=${heapMB}`] : []), '--expose-gc', path.join(import.meta.dirname, 'measure.ts'), what],
          {
            env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '' },
            encoding: 'utf8',
          },
        );
        return JSON.parse(output.trim().split('\n').pop()!);
      });
      const result = {
        ...results[0],
        ms: median(results.map((r) => r.ms)),
        cpuMs: median(results.map((r) => r.cpuMs)),
        forcedGcMs: median(results.map((r) => r.forcedGcMs)),
        rssMB: Math.max(...results.map((r) => r.rssMB)),
      };
      if (result.summary) console.log(result.summary.replace(/^/gm, '  '));
      const rate = Math.round(result.ballots / (result.ms / 1000));
      const each = runs > 1 ? `  (runs: ${results.map((r) => (r.ms / 1000).toFixed(1)).join(', ')} s)` : '';
      rows.push(
        `${what.padEnd(7)}${size.toLocaleString('en').padStart(10)} ballots  ${(result.ms / 1000).toFixed(2).padStart(7)} s  cpu ${(result.cpuMs / 1000).toFixed(2).padStart(6)} s  ${rate.toLocaleString('en').padStart(8)} ballots/s  peak RSS ${String(result.rssMB).padStart(4)} MB  peak heap ${String(result.heapMB).padStart(4)} MB, live after GC ${String(result.liveMB).padStart(3)} MB (its ${(result.forcedGcMs / 1000).toFixed(2)} s of collections left out of the time)${each}`,
      );
      console.log(rows[rows.length - 1]);
      last.push(`${what}: ${size} ballots in ${(result.ms / 1000).toFixed(2)} s (${rate} ballots/s), peak RSS ${result.rssMB} MB`);
      if (size <= BUDGET_BALLOTS) {
        if (result.rssMB > RSS_BUDGET_MB)
          missed.push(`${what} at ${size.toLocaleString('en')} ballots: peak RSS ${result.rssMB} MB, over its ${RSS_BUDGET_MB} MB budget`);
        const budget = TIME_BUDGET_S[what];
        if (budget && result.ms / 1000 > budget)
          missed.push(`${what} at ${size.toLocaleString('en')} ballots: ${(result.ms / 1000).toFixed(2)} s, over its ${budget} s budget`);
      }
    }
  } finally {
    if (kept) console.log(`kept ${dir} for the next run`);
    else if (!process.env.BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
    else console.log(`kept ${dir}`);
  }
}
console.log(
  `\nSQLite, Node ${process.version}, ${heapMB ? `old space at most ${heapMB} MB` : 'no heap cap'}, median of ${runs} run${runs === 1 ? '' : 's'}; load average at the end ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')} on ${availableParallelism()} cores (cpu: all threads):\n${rows.join('\n')}\n`,
);
console.log(last.join('\n'));
const budgets = `${RSS_BUDGET_MB} MB peak RSS each, ${Object.entries(TIME_BUDGET_S)
  .map(([what, s]) => `${what} ${s} s`)
  .join(', ')} at up to ${BUDGET_BALLOTS.toLocaleString('en')} ballots`;
if (missed.length) {
  console.log(`\nOVER BUDGET (${budgets}):\n${missed.join('\n')}`);
  process.exitCode = 1;
} else console.log(`\nwithin budget: ${budgets}`);
