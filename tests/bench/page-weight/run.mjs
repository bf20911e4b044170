// Page weight and first-load performance of the built site.
//
//   npm run bench:page-weight            builds, weighs every page, runs Lighthouse
//   npm run bench:page-weight -- --no-lighthouse
//   BENCH_RUNS=5 npm run bench:page-weight
//
// Prints, per page, the JavaScript and CSS a first visit downloads. Then runs Lighthouse (mobile)
// three times (BENCH_RUNS) on the demo home page in English and in Spanish and on pages without
// JavaScript, taking turns, all served by `bin/serve.mjs` in the same run, and prints the medians
// side by side: the JavaScript the demo page transfers, its requests, its total blocking time, and
// the largest contentful paint of each language's page against each plain page's. The plain pages
// are each language's copy with every script removed (the same stylesheet, splash and markup), and
// the demo ballot written by hand as plain HTML with about 1 KB of inline CSS (./plain-ballot/):
// the least a page showing this ballot needs. Then taps the demo page and its copy three times each, taking turns, and prints the
// medians of their Interaction to Next Paint (./interaction.mjs). Exits 1 when the demo page
// misses a budget below. Without Lighthouse, only the JavaScript is checked, from the Brotli files
// the server would send.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { weighPage } from './weigh.mjs';
import { interactionMeter } from './interaction.mjs';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../../support/chromium.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const clientDir = path.join(root, 'dist/client');
const args = new Set(process.argv.slice(2));
/**
 * The demo home page's budgets on first load: JavaScript transferred (React included, as served: Brotli), requests of any
 * kind, largest contentful paint against each plain page's, total blocking time (Lighthouse mobile), and Interaction to
 * Next Paint of a voter's taps.
 */
const BUDGET = { js: 80 * 1024, requests: 12, lcpRatio: 1.1, tbt: 50, inp: 200 };
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** The demo ballot as plain HTML, written by hand: the floor the demo page's paint is held to. */
const PLAIN_BALLOT = fileURLToPath(new URL('./plain-ballot/', import.meta.url));
const PORT = Number(process.env.BENCH_PORT ?? 4399);

if (!args.has('--no-build')) {
  console.error('building the site…');
  const build = spawnSync(process.execPath, ['node_modules/astro/bin/astro.mjs', 'build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const pages = readdirSync(clientDir, { recursive: true })
  .filter((file) => String(file).endsWith('index.html'))
  .map(String)
  .sort();
console.log('\nFirst visit, per page (gzip; JS br as served)');
console.log(['page'.padEnd(44), 'JS'.padStart(10), 'JS br'.padStart(10), 'JS raw'.padStart(10), 'CSS'.padStart(9), 'HTML'.padStart(9)].join(''));
let demoJs = 0;
// The demo page in Spanish (the survey's further language) keeps the same budget.
let spanishJs = 0;
for (const page of pages) {
  const weight = weighPage(clientDir, path.join(clientDir, page));
  const name = `/${path.dirname(page) === '.' ? '' : `${path.dirname(page)}/`}`;
  if (name === '/top-doctors-demo/') demoJs = weight.js.brotli;
  if (name === '/es/top-doctors-demo/') spanishJs = weight.js.brotli;
  console.log(
    [
      name.padEnd(44),
      kb(weight.js.gzip).padStart(10),
      kb(weight.js.brotli).padStart(10),
      kb(weight.js.raw).padStart(10),
      kb(weight.css.gzip).padStart(9),
      kb(weight.html.gzip).padStart(9),
    ].join(''),
  );
}

/** Prints one figure against its budget; false when it is over. */
const verdict = (label, figure, shown, budget, budgetShown) => {
  const within = figure <= budget;
  console.log(`${label.padEnd(46)}${shown.padStart(10)}   budget ${budgetShown.padEnd(10)} ${within ? 'within' : 'OVER BUDGET'}`);
  return within;
};
let within;
if (args.has('--no-lighthouse')) {
  console.log('\nDemo home page, first load (files as served; requests and paint need Lighthouse)');
  within = [
    verdict('JavaScript (Brotli bodies)', demoJs, kb(demoJs), BUDGET.js, kb(BUDGET.js)),
    verdict('JavaScript in Spanish (Brotli bodies)', spanishJs, kb(spanishJs), BUDGET.js, kb(BUDGET.js)),
  ].every(Boolean);
} else {
  const { app, plain, ballot, spanish, spanishPlain, appInp, plainInp } = await lighthouseComparison();
  console.log(`\nDemo home page, first load (Lighthouse mobile, median of ${RUNS} runs; baselines from the same run)`);
  const lcpVerdict = (name, baseline, page = app, language = '') =>
    verdict(
      `LCP${language} / ${name}'s (${Math.round(page.lcp)} / ${Math.round(baseline.lcp)} ms)`,
      page.lcp / baseline.lcp,
      (page.lcp / baseline.lcp).toFixed(2),
      BUDGET.lcpRatio,
      BUDGET.lcpRatio.toFixed(2),
    );
  within = [
    verdict(`total blocking time (plain copy ${Math.round(plain.tbt)} ms)`, app.tbt, `${Math.round(app.tbt)} ms`, BUDGET.tbt, `${BUDGET.tbt} ms`),
    verdict(`TBT in Spanish (plain copy ${Math.round(spanishPlain.tbt)} ms)`, spanish.tbt, `${Math.round(spanish.tbt)} ms`, BUDGET.tbt, `${BUDGET.tbt} ms`),
    verdict(`INP of two taps (plain copy ${Math.round(plainInp.value)} ms)`, appInp.value, `${Math.round(appInp.value)} ms`, BUDGET.inp, `${BUDGET.inp} ms`),
    verdict('JavaScript transferred', app.js, kb(app.js), BUDGET.js, kb(BUDGET.js)),
    verdict('JavaScript in Spanish (Brotli bodies)', spanishJs, kb(spanishJs), BUDGET.js, kb(BUDGET.js)),
    verdict('requests', app.requests, String(app.requests), BUDGET.requests, String(BUDGET.requests)),
    lcpVerdict('plain copy', plain),
    lcpVerdict('plain ballot', ballot),
    lcpVerdict('plain copy', spanishPlain, spanish, ' in Spanish'),
    lcpVerdict('plain ballot', ballot, spanish, ' in Spanish'),
  ].every(Boolean);
}
process.exit(within ? 0 : 1);

/** A copy of a built page (the demo's, in a language) with every script removed: what the page costs without JavaScript. */
function writePlainCopy(page, name) {
  const html = readFileSync(path.join(clientDir, page, 'index.html'), 'utf8')
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<link[^>]*rel="modulepreload"[^>]*>/g, '')
    .replace(/<astro-island[^>]*>/g, '<div>')
    .replace(/<\/astro-island>/g, '</div>');
  const dir = path.join(clientDir, name);
  mkdirSync(dir, { recursive: true });
  // Compressed like the built pages, so that both are served alike.
  writeFileSync(path.join(dir, 'index.html'), html);
  writeFileSync(path.join(dir, 'index.html.br'), brotliCompressSync(html));
  writeFileSync(path.join(dir, 'index.html.gz'), gzipSync(html, { level: 9 }));
  return dir;
}

/**
 * The hand-written plain ballot beside the built pages, compressed like them, so that the same server sends it alike; its
 * images are asked for from its own folder.
 */
function writePlainBallot() {
  const dir = path.join(clientDir, '__bench-ballot');
  mkdirSync(dir, { recursive: true });
  cpSync(PLAIN_BALLOT, dir, { recursive: true });
  const html = readFileSync(path.join(PLAIN_BALLOT, 'index.html'), 'utf8').replaceAll('src="/', 'src="/__bench-ballot/');
  writeFileSync(path.join(dir, 'index.html'), html);
  writeFileSync(path.join(dir, 'index.html.br'), brotliCompressSync(html));
  writeFileSync(path.join(dir, 'index.html.gz'), gzipSync(html, { level: 9 }));
  return dir;
}

async function lighthouseComparison() {
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const plainDir = writePlainCopy('top-doctors-demo', '__bench-plain');
  const spanishPlainDir = writePlainCopy('es/top-doctors-demo', '__bench-plain-es');
  const ballotDir = writePlainBallot();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'peervote-bench-'));
  const server = spawn(process.execPath, ['bin/serve.mjs'], {
    cwd: root,
    env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: dataDir },
    stdio: 'ignore',
  });
  try {
    await waitFor(`http://127.0.0.1:${PORT}/top-doctors-demo/`);
    const chrome = await chromeLauncher.launch({
      chromePath: CHROMIUM_PATH,
      chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS],
    });
    try {
      /** One Lighthouse run of a page; a run Lighthouse could not finish (a busy machine: no paint in time) is retried, a few times at most. */
      const once = async (url) => {
        for (let attempt = 1; attempt <= 3; attempt++) {
          const { lhr } = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
          const requests = lhr.audits['network-requests']?.details?.items;
          const lcp = lhr.audits['largest-contentful-paint']?.numericValue;
          if (lhr.runtimeError || !requests || lcp === undefined) {
            console.error(`  no result (${lhr.runtimeError?.code ?? lhr.audits['network-requests']?.errorMessage ?? 'no figures'}), once more`);
            continue;
          }
          return {
            score: Math.round((lhr.categories.performance.score ?? 0) * 100),
            lcp,
            tbt: lhr.audits['total-blocking-time'].numericValue,
            requests: requests.length,
            // Bytes on the wire, headers included, as the browser received them.
            js: requests.filter((request) => request.resourceType === 'Script').reduce((total, request) => total + request.transferSize, 0),
          };
        }
        throw new Error(`Lighthouse could not measure ${url} in 3 attempts`);
      };
      const median = (runs) => {
        const of = (key) => runs.map((run) => run[key]).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
        return { score: of('score'), lcp: of('lcp'), tbt: of('tbt'), requests: of('requests'), js: of('js') };
      };
      // The three pages take turns, so that a busy spell on the shared machine weighs on each alike.
      const pages = [
        ['demo home page', '/top-doctors-demo/'],
        ['plain-HTML copy, no JavaScript', '/__bench-plain/'],
        ['demo home page in Spanish', '/es/top-doctors-demo/'],
        ['its plain-HTML copy', '/__bench-plain-es/'],
        ['plain ballot, written by hand', '/__bench-ballot/'],
      ];
      const runs = pages.map(() => []);
      for (let run = 1; run <= RUNS; run++) {
        console.error(`lighthouse ${run}/${RUNS}: the demo page and its plain copy, in English and in Spanish, and the plain ballot`);
        for (const [i, [, pathname]] of pages.entries()) runs[i].push(await once(`http://127.0.0.1:${PORT}${pathname}`));
      }
      const [app, plain, spanish, spanishPlain, ballot] = runs.map(median);
      console.log(`\nLighthouse, mobile, median of ${RUNS} runs`);
      console.log(['page'.padEnd(34), 'score'.padStart(7), 'LCP'.padStart(10), 'TBT'.padStart(9), 'requests'.padStart(10), 'JS'.padStart(10)].join(''));
      for (const [i, r] of [app, plain, spanish, spanishPlain, ballot].entries()) {
        console.log(
          [
            pages[i][0].padEnd(34),
            String(r.score).padStart(7),
            `${Math.round(r.lcp)} ms`.padStart(10),
            `${Math.round(r.tbt)} ms`.padStart(9),
            String(r.requests).padStart(10),
            kb(r.js).padStart(10),
          ].join(''),
        );
      }
      console.log(`ratio (demo / plain copy): score ${(app.score / plain.score).toFixed(2)}, LCP ${(app.lcp / plain.lcp).toFixed(2)}`);
      console.log(`ratio (demo / plain ballot): score ${(app.score / ballot.score).toFixed(2)}, LCP ${(app.lcp / ballot.lcp).toFixed(2)}`);
      console.log(
        `ratio (Spanish demo / its plain copy): score ${(spanish.score / spanishPlain.score).toFixed(2)}, LCP ${(spanish.lcp / spanishPlain.lcp).toFixed(2)}`,
      );
      const { appInp, plainInp } = await interactionComparison();
      return { app, plain, ballot, spanish, spanishPlain, appInp, plainInp };
    } finally {
      chrome.kill();
    }
  } finally {
    server.kill();
    rmSync(plainDir, { recursive: true, force: true });
    rmSync(spanishPlainDir, { recursive: true, force: true });
    rmSync(ballotDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Interaction to Next Paint of the demo page and of its plain copy, taking turns; the median run of each. */
async function interactionComparison() {
  const meter = await interactionMeter();
  try {
    const appRuns = [];
    const plainRuns = [];
    for (let run = 1; run <= RUNS; run++) {
      console.error(`taps ${run}/${RUNS}: the demo page, then its plain copy`);
      appRuns.push(await meter.measure(`http://127.0.0.1:${PORT}/top-doctors-demo/`, { plain: false }));
      plainRuns.push(await meter.measure(`http://127.0.0.1:${PORT}/__bench-plain/`, { plain: true }));
    }
    const median = (runs) => runs.toSorted((a, b) => a.value - b.value)[Math.floor(runs.length / 2)];
    const appInp = median(appRuns);
    const plainInp = median(plainRuns);
    const ms = (value) => `${Math.round(value)} ms`;
    console.log(`\nInteraction to Next Paint, a tap on a nomination input and on Submit (CPU 4x slower), median of ${RUNS} runs`);
    console.log(['page'.padEnd(34), 'INP'.padStart(8), 'input'.padStart(8), 'process'.padStart(9), 'paint'.padStart(8), '  slowest interaction'].join(''));
    for (const [name, r] of [
      ['demo home page', appInp],
      ['plain-HTML copy, no JavaScript', plainInp],
    ]) {
      console.log(
        [
          name.padEnd(34),
          ms(r.value).padStart(8),
          ms(r.input).padStart(8),
          ms(r.processing).padStart(9),
          ms(r.presentation).padStart(8),
          `  ${r.type} on ${r.target}`,
        ].join(''),
      );
    }
    console.log(`ratio (demo / plain): INP ${(appInp.value / Math.max(plainInp.value, 1)).toFixed(2)}`);
    return { appInp, plainInp };
  } finally {
    await meter.close();
  }
}

async function waitFor(url) {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the server did not answer at ${url}`);
}
