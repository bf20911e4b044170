// People benchmark (a script, not a test): the invited people of a large survey.
//
// Makes a roster of COUNT (100,000) made-up people, starts the built server (`npm run build`
// first; `npm run bench:people` does) on a fresh SQLite database and a copy of the surveys, and
// runs `npm run results -- invite top-doctors-demo --roster …` against it while asking
// `/api/health` one request after the other and reading the server's resident memory from /proc,
// on until one of the new personal links opens and two seconds more. Then it adds a person to the
// prepopulation file by hand, as an operator might, and asks the same while the API reads the file
// again, until the new link opens. Prints each figure beside its budget; exits 1 when one is over.
//
//   npm run bench:people -- [--count 100000]
import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, startServer } from '../../support/server.mjs';
import { RESULTS_NODE_OPTIONS } from '../../support/results-cli.ts';

const { values: args } = parseArgs({ options: { count: { type: 'string' } } });
const COUNT = Number(args.count ?? 100_000);
const SLUG = 'top-doctors-demo';

/** The budgets at 100,000 people. */
const BUDGET = { inviteMs: 15_000, healthP99Ms: 50, rssMiB: 300 };

const work = mkdtempSync(path.join(tmpdir(), 'peervote-bench-people-'));
const surveys = path.join(work, 'surveys');
const dataDir = path.join(work, 'data');
cpSync(path.join(ROOT, 'surveys'), surveys, { recursive: true });
// The demo's own two people stay: invite keeps people on file that the roster lacks.
const roster = path.join(work, 'roster.csv');
let csv = 'email,name\n';
for (let n = 0; n < COUNT; n++) csv += `person${n}@bench.example,Person ${n} Madeup\n`;
writeFileSync(roster, csv);

/** The server's resident memory now, in MiB, from Linux's /proc; NaN elsewhere. */
function rssMiB(pid: number | undefined): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb) / 1024;
  } catch {
    return Number.NaN;
  }
}

/** The 99th percentile of some durations. */
const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.99))] ?? Number.NaN;

/** Asks `/api/health` one request after the other, and reads the server's memory, until `stop` is called: the durations and the highest memory seen. */
function watch(url: string, pid: number | undefined): { stop(): Promise<{ durations: number[]; maxRss: number }> } {
  const durations: number[] = [];
  let maxRss = rssMiB(pid);
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(`${url}/api/health`);
      await response.arrayBuffer();
      durations.push(performance.now() - started);
      maxRss = Math.max(maxRss, rssMiB(pid));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { durations, maxRss };
    },
  };
}

/** Runs invite to its end: its wall-clock time, its stderr and the first personal link of the list it wrote. */
function invite(env: Record<string, string>): Promise<{ ms: number; stderr: string; links: string }> {
  const out = path.join(work, 'links.csv');
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...RESULTS_NODE_OPTIONS, 'bin/results.mjs', 'invite', SLUG, '--roster', roster, '--out', out], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) =>
      code === 0
        ? resolve({ ms: performance.now() - started, stderr, links: readFileSync(out, 'utf8') })
        : reject(new Error(`invite failed (${code}): ${stderr.slice(-800)}`)),
    );
  });
}

let within = true;
/** Prints one figure against its budget; notes when it is over. */
function verdict(label: string, figure: number, unit: string, budget: number): void {
  const ok = figure <= budget;
  within &&= ok;
  console.log(
    `${label.padEnd(52)}${`${figure.toFixed(unit === 's' ? 1 : 0)} ${unit}`.padStart(10)}   budget ${`${budget} ${unit}`.padEnd(10)} ${ok ? 'within' : 'OVER BUDGET'}`,
  );
}

const env = { SURVEYS_DIR: surveys, DATA_DIR: dataDir, DATABASE_URL: '', RATE_LIMIT_MAX: '0', LINK_RATE_LIMIT_MAX: '0', PEERVOTE_PRIVATE_DIR: '' };
const server = await startServer({ env, timeoutMs: 120_000 });
try {
  process.stderr.write(`${COUNT} people; server at ${server.url}, ${rssMiB(server.child.pid).toFixed(0)} MiB at start\n`);
  const during = watch(server.url, server.child.pid);
  const invited = await invite(env);
  process.stderr.write(invited.stderr);
  // Watched on until a new link opens and the API has looked at its files again (at most once a
  // second): the time it takes the new people up is part of the invite.
  const secret = decodeURIComponent(new URL(invited.links.split('\n')[1].split(',').at(-1)!).pathname.split('/').at(-1)!);
  const ended = performance.now();
  while ((await fetch(`${server.url}/api/survey/link/${SLUG}?secret=${encodeURIComponent(secret)}`)).status !== 200) {
    if (performance.now() - ended > 120_000) throw new Error('a new personal link did not open within two minutes of invite');
  }
  const takenUpMs = performance.now() - ended;
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const inviting = await during.stop();

  // A person added to the file by hand: the API reads it again, and the new link opens.
  const file = path.join(surveys, SLUG, 'prepopulation.yaml');
  const added = 'benchHandAdded0001';
  const editing = watch(server.url, server.child.pid);
  const edited = performance.now();
  appendFileSync(file, `${added}:\n  email: added@bench.example\n  name: Added By Hand\n`);
  while ((await fetch(`${server.url}/api/survey/link/${SLUG}?secret=${added}`)).status !== 200) {
    if (performance.now() - edited > 60_000) throw new Error('the person added by hand did not open within a minute');
  }
  const editMs = performance.now() - edited;
  const afterEdit = await editing.stop();

  console.log(`\npeople benchmark: ${COUNT} people invited to ${SLUG} (SQLite)`);
  verdict('invite (whole process)', invited.ms / 1000, 's', BUDGET.inviteMs / 1000);
  console.log(`${'a new link opens, after invite ends, in'.padEnd(52)}${`${(takenUpMs / 1000).toFixed(1)} s`.padStart(10)}`);
  verdict(`/api/health p99 during invite and 2 s on (${inviting.durations.length} asks)`, p99(inviting.durations), 'ms', BUDGET.healthP99Ms);
  console.log(`${'/api/health slowest during invite and 2 s on'.padEnd(52)}${`${Math.max(...inviting.durations).toFixed(0)} ms`.padStart(10)}`);
  verdict("API's resident memory, highest during invite", inviting.maxRss, 'MiB', BUDGET.rssMiB);
  console.log(`${'a person added by hand opens after'.padEnd(52)}${`${(editMs / 1000).toFixed(1)} s`.padStart(10)}`);
  verdict(`/api/health p99 while the file is read (${afterEdit.durations.length} asks)`, p99(afterEdit.durations), 'ms', BUDGET.healthP99Ms);
  verdict("API's resident memory, highest while the file is read", afterEdit.maxRss, 'MiB', BUDGET.rssMiB);
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
process.exit(within ? 0 : 1);
