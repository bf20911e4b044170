// Ingest benchmark (a script, not a test): posts realistic demo ballots to the built server
// (bin/serve.mjs) and to a bare node:http handler running the same intake code
// (tests/bench/minimal-server.ts), at 16 and at 64 concurrent clients, taking turns, three
// rounds; prints the median ballots/s and p50/p99 latency of each, and the ratios against the
// bare handler. Afterwards every acknowledged ballot is looked up in the database.
//
//   npm run bench:ingest        (BENCH_SECONDS=10 BENCH_ROUNDS=3 BENCH_CLIENTS=16,64 by default)
// Beside the rates it prints the server process's CPU time per ballot (user + system, read from
// /proc), which a busy machine disturbs far less than the rates: on a shared machine compare those.
// Progress goes to stderr, the table to stdout. BENCH_NODE_ARGS passes flags (`--cpu-prof`) to both servers.
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { startServer } from '../support/server.mjs';
import { demoBallotFields, multipart } from '../support/ballots.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CLIENTS = (process.env.BENCH_CLIENTS ?? '16,64').split(',').map(Number);
const MAX_REQUESTS = 2_000_000;
const BODIES = Array.from({ length: 1000 }, (_, n) => multipart(demoBallotFields(n)));
/** The most the server may fall behind the bare handler: ballots/s at least 0.8×, p99 at most 1.5×. */
const BUDGET = { rate: 0.8, p99: 1.5 };

function post(agent, url, n) {
  const { body, contentType } = BODIES[n % BODIES.length];
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const req = http.request(
      `${url}/api/survey?project_id=top-doctors-demo&project_type=form&sheet=bench`,
      { method: 'POST', agent, headers: { Origin: url, 'Content-Type': contentType, 'Content-Length': body.length } },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          const text = Buffer.concat(chunks).toString();
          resolve({ status: res.statusCode, ms, id: res.statusCode === 201 ? JSON.parse(text).ballot_id : undefined, text });
        });
      },
    );
    req.on('error', (error) => resolve({ status: 0, ms: 0, text: String(error) }));
    req.end(body);
  });
}

/** Posts with `clients` concurrent clients for `seconds`; returns latencies, acknowledged ids and failures. */
async function load(url, clients, seconds, counter) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const end = Date.now() + seconds * 1000;
  const latencies = [];
  const ids = [];
  const failures = new Map();
  const worker = async () => {
    while (Date.now() < end && counter.n < MAX_REQUESTS) {
      const result = await post(agent, url, counter.n++);
      if (result.status === 201) {
        latencies.push(result.ms);
        ids.push(result.id);
      } else {
        const key = `${result.status} ${result.text.slice(0, 120)}`;
        failures.set(key, (failures.get(key) ?? 0) + 1);
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, worker));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  return { latencies, ids, failures, elapsed };
}

/** The CPU time a process has used so far, user and system, in milliseconds (Linux's /proc; NaN elsewhere). */
function cpuMs(pid) {
  try {
    // Fields 14 and 15 after the command's parenthesised name: utime and stime, in clock ticks (100 a second).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One round on one target: a fresh server and database, then each client count in turn; every acknowledged ballot checked in the database. */
async function round(target) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'peervote-bench-'));
  const server = await startServer({ args: target.args, env: { DATA_DIR: dataDir, RATE_LIMIT_MAX: '0', DATABASE_URL: '' } });
  const counter = { n: 0 };
  const acknowledged = [];
  const results = new Map();
  for (const clients of CLIENTS) {
    const warm = await load(server.url, clients, WARMUP_SECONDS, counter);
    const cpuBefore = cpuMs(server.child.pid);
    const measured = await load(server.url, clients, SECONDS, counter);
    const cpuPerBallot = (cpuMs(server.child.pid) - cpuBefore) / measured.ids.length;
    acknowledged.push(...warm.ids, ...measured.ids);
    const sorted = measured.latencies.sort((a, b) => a - b);
    const failures = [...warm.failures, ...measured.failures];
    results.set(clients, {
      rate: measured.ids.length / measured.elapsed,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      cpu: cpuPerBallot,
      failures: failures.reduce((n, [, count]) => n + count, 0),
      failureKinds: failures,
    });
    process.stderr.write(
      `  ${target.name}, ${clients} clients: ${(measured.ids.length / measured.elapsed).toFixed(0)} ballots/s, p99 ${percentile(sorted, 99).toFixed(1)} ms\n`,
    );
  }
  await server.stop();
  const db = new DatabaseSync(path.join(dataDir, 'peervote.sqlite'), { readOnly: true });
  const stored = new Set(
    db
      .prepare('SELECT id FROM ballots')
      .all()
      .map((row) => row.id),
  );
  db.close();
  rmSync(dataDir, { recursive: true, force: true });
  return { results, acknowledged: acknowledged.length, missing: acknowledged.filter((id) => !stored.has(id)).length };
}

console.log(
  `Ingest benchmark: demo ballots (8 nominations, 1 write-in), ${CLIENTS.join(' and ')} concurrent clients, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s measured each, median of ${ROUNDS} rounds, SQLite`,
);
const nodeArgs = process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : [];
const targets = [
  { name: 'Astro endpoint (bin/serve.mjs)', args: [...nodeArgs, 'bin/serve.mjs'], rounds: [] },
  { name: 'bare node:http, same intake', args: [...nodeArgs, 'tests/bench/minimal-server.ts'], rounds: [] },
];
for (let n = 1; n <= ROUNDS; n++) {
  process.stderr.write(`round ${n} of ${ROUNDS}\n`);
  // Taking turns, so that a busy spell of the machine falls on both alike.
  for (const target of n % 2 ? targets : [...targets].reverse()) target.rounds.push(await round(target));
}

/** The medians of one target at one client count over the rounds, and every failure seen. */
function summary(target, clients) {
  const runs = target.rounds.map((r) => r.results.get(clients));
  const failureKinds = new Map();
  for (const run of runs) for (const [kind, count] of run.failureKinds) failureKinds.set(kind, (failureKinds.get(kind) ?? 0) + count);
  return {
    rate: median(runs.map((r) => r.rate)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    cpu: median(runs.map((r) => r.cpu)),
    failures: runs.reduce((n, r) => n + r.failures, 0),
    failureKinds,
  };
}

let withinBudget = true;
console.log('');
console.log('clients  target                            ballots/s    p50 ms    p99 ms  cpu ms/ballot   failed   vs bare: rate   p99  cpu');
for (const clients of CLIENTS) {
  const [astro, bare] = targets.map((target) => summary(target, clients));
  for (const [target, r] of [
    [targets[0], astro],
    [targets[1], bare],
  ]) {
    const ratios =
      target === targets[0]
        ? `${(r.rate / bare.rate).toFixed(2).padStart(14)}× ${(r.p99 / bare.p99).toFixed(2).padStart(5)}× ${(r.cpu / bare.cpu).toFixed(2).padStart(4)}×`
        : '';
    console.log(
      `${String(clients).padStart(7)}  ${target.name.padEnd(32)} ${r.rate.toFixed(0).padStart(10)} ${r.p50.toFixed(1).padStart(9)} ${r.p99.toFixed(1).padStart(9)} ${r.cpu.toFixed(2).padStart(14)} ${String(r.failures).padStart(8)} ${ratios}`,
    );
    for (const [kind, count] of r.failureKinds) console.log(`           ${count} × ${kind}`);
  }
  if (astro.rate < BUDGET.rate * bare.rate || astro.p99 > BUDGET.p99 * bare.p99) withinBudget = false;
}
const acknowledged = targets.flatMap((target) => target.rounds).reduce((n, r) => n + r.acknowledged, 0);
const missing = targets.flatMap((target) => target.rounds).reduce((n, r) => n + r.missing, 0);
console.log('');
console.log(`${acknowledged - missing} of ${acknowledged} acknowledged ballots found in the database.`);
console.log(
  withinBudget
    ? `Within budget: at least ${BUDGET.rate}× the bare handler's ballots/s and at most ${BUDGET.p99}× its p99 at every client count.`
    : `Over budget: the server must reach ${BUDGET.rate}× the bare handler's ballots/s and at most ${BUDGET.p99}× its p99 at every client count.`,
);
if (missing) console.error('Some acknowledged ballots are missing from the database.');
if (missing || !withinBudget) process.exitCode = 1;
