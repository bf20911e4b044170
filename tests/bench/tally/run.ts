// Tally benchmark (a script, not a test): generates 10,000 and 1,000,000 ballots of the demo
// survey in fresh SQLite databases, then tallies each in a process of its own and prints the
// time and the peak memory: the resident set, the JavaScript heap with its garbage, and the
// heap that is live after a full collection. The tally reads a page of ballots at a time and
// keeps who has voted in a temporary table, so its live memory is the same for both sizes.
// Export is measured the same way.
//
//   npm run bench:tally       BENCH_SIZES=10000,1000000 by default; BENCH_KEEP=1 keeps the databases;
//                             BENCH_HEAP_MB=64 runs the measured processes with that much old-space heap at most
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createDatabase, migrateToLatest } from '../../../src/server/db/database.ts';
import { loadSurvey } from '../../../src/survey/loader.ts';
import { loadNominees } from '../../../src/survey/nominee-file.ts';
import { generateBallots, VOTES_PER_BALLOT } from './generate.ts';

const sizes = (process.env.BENCH_SIZES ?? '10000,1000000').split(',').map(Number);
const nominees = loadNominees(loadSurvey('top-doctors-demo'));
const rows: string[] = [];

for (const size of sizes) {
  const dir = mkdtempSync(path.join(tmpdir(), `peervote-bench-tally-${size}-`));
  try {
    const file = path.join(dir, 'peervote.sqlite');
    const { db } = createDatabase({ sqliteFile: file, sqliteSynchronous: 'NORMAL', pgPoolMax: 1 });
    await migrateToLatest(db);
    await db.destroy();
    const t0 = performance.now();
    generateBallots(file, size, nominees);
    console.log(`${size.toLocaleString('en')} ballots (${(size * VOTES_PER_BALLOT).toLocaleString('en')} nomination slots) generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    for (const what of ['tally', 'export']) {
      const output = execFileSync(process.execPath, [...(process.env.BENCH_HEAP_MB ? [`--max-old-space-size=${process.env.BENCH_HEAP_MB}`] : []), '--expose-gc', path.join(import.meta.dirname, 'measure.ts'), what], {
        env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '' },
        encoding: 'utf8',
      });
      const result = JSON.parse(output.trim().split('\n').pop()!);
      if (result.summary) console.log(result.summary.replace(/^/gm, '  '));
      const rate = Math.round(result.ballots / (result.ms / 1000));
      rows.push(`${what.padEnd(7)}${size.toLocaleString('en').padStart(10)} ballots  ${(result.ms / 1000).toFixed(2).padStart(7)} s  ${rate.toLocaleString('en').padStart(8)} ballots/s  peak RSS ${String(result.rssMB).padStart(4)} MB  peak heap ${String(result.heapMB).padStart(4)} MB, live after GC ${String(result.liveMB).padStart(3)} MB`);
      console.log(rows[rows.length - 1]);
    }
  } finally {
    if (!process.env.BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
    else console.log(`kept ${dir}`);
  }
}
console.log(`\nSQLite, Node ${process.version}, pages of 2,000 ballots${process.env.BENCH_HEAP_MB ? `, old space at most ${process.env.BENCH_HEAP_MB} MB` : ''}:\n${rows.join('\n')}`);
