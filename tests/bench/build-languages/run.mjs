// The build's time with the languages the surveys offer, against the same build in one language.
//
//   npm run bench:build-languages
//   BENCH_RUNS=5 npm run bench:build-languages
//
// Copies the project twice into a temporary folder (node_modules shared): one as it is, one where
// the product ships only its default language (project.inlang/settings.json) and every survey
// offers only its first language, its translations taken out. Builds each in turn, BENCH_RUNS
// times (3), and prints each build's time, the medians and the median of the pairs' ratios. Exits
// 1 when the build with every language takes more than 1.3 times the build with one.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** The most the build with every language may take, as a multiple of the build with one. */
const BUDGET = 1.3;
/** What a copy of the project leaves out: what a build makes, and what it reads from the project itself. */
const SKIP = new Set(['node_modules', 'dist', 'data', '.git', '.astro', 'test-results', 'src/i18n/paraglide']);

function copyProject(to) {
  cpSync(root, to, { recursive: true, filter: (from) => !SKIP.has(path.relative(root, from)) });
  symlinkSync(path.join(root, 'node_modules'), path.join(to, 'node_modules'), 'dir');
}

/** Turns a copy into the product in its default language only. */
function oneLanguage(dir) {
  const settingsFile = path.join(dir, 'project.inlang/settings.json');
  const settings = JSON.parse(readFileSync(settingsFile, 'utf8'));
  writeFileSync(settingsFile, JSON.stringify({ ...settings, locales: [settings.baseLocale] }, null, 2));
  for (const entry of readdirSync(path.join(dir, 'surveys'), { withFileTypes: true })) {
    const file = path.join(dir, 'surveys', entry.name, 'survey.yaml');
    if (!entry.isDirectory()) continue;
    let text;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const document = parseDocument(text);
    const languages = document.get('languages')?.toJSON?.();
    if (!Array.isArray(languages)) continue;
    document.set('languages', [languages[0]]);
    document.delete('translations');
    writeFileSync(file, document.toString());
  }
}

/** One build of a copy, in seconds. */
function build(dir) {
  const started = performance.now();
  const result = spawnSync(process.execPath, [path.join(dir, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) {
    console.error(result.stdout, result.stderr);
    throw new Error(`the build in ${dir} failed`);
  }
  return (performance.now() - started) / 1000;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const work = mkdtempSync(path.join(tmpdir(), 'peervote-build-languages-'));
try {
  const every = path.join(work, 'every');
  const one = path.join(work, 'one');
  copyProject(every);
  copyProject(one);
  oneLanguage(one);
  // As `npm install` does: the build's own configuration imports the compiled catalogue.
  for (const dir of [every, one]) spawnSync(process.execPath, ['bin/messages.ts'], { cwd: dir, stdio: 'inherit' });
  // A first build of each compiles its catalogue and warms the disk's cache; it is not counted.
  console.log('warming up: one build of each');
  build(every);
  build(one);
  const times = { every: [], one: [] };
  const ratios = [];
  for (let run = 1; run <= RUNS; run++) {
    // Taking turns, the one-language build first on even runs, so that neither always follows the other.
    const order = run % 2 ? ['every', 'one'] : ['one', 'every'];
    const took = {};
    for (const which of order) took[which] = build(which === 'every' ? every : one);
    times.every.push(took.every);
    times.one.push(took.one);
    ratios.push(took.every / took.one);
    console.log(
      `run ${run}/${RUNS}: every language ${took.every.toFixed(1)} s, one language ${took.one.toFixed(1)} s, ratio ${(took.every / took.one).toFixed(2)}`,
    );
  }
  const ratio = median(ratios);
  console.log(`\nmedians: every language ${median(times.every).toFixed(1)} s, one language ${median(times.one).toFixed(1)} s`);
  console.log(`ratio (median of the pairs): ${ratio.toFixed(2)} (budget ${BUDGET})`);
  if (ratio > BUDGET) {
    console.error(`the build with every language took ${ratio.toFixed(2)} times the build with one, over ${BUDGET}`);
    process.exitCode = 1;
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
