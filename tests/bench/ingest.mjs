// Ingest benchmark (a script, not a test): posts realistic demo ballots to the built server
// from this process for a fixed time and prints ballots/s and p50/p99 latency; then the same
// against a bare node:http handler running the same intake code, so Astro's overhead shows as
// a ratio. Afterwards every acknowledged ballot is looked up in the database.
//
//   npm run bench:ingest        (BENCH_SECONDS=10 BENCH_CONCURRENCY=16 by default)
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { startServer } from '../support/server.mjs';
import { demoBallotFields, multipart } from '../support/ballots.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const MAX_REQUESTS = 500_000;
const BODIES = Array.from({ length: 1000 }, (_, n) => multipart(demoBallotFields(n)));

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

/** Posts with CONCURRENCY clients for `seconds`; returns latencies, acknowledged ids and failures. */
async function load(url, seconds, counter) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
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
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  return { latencies, ids, failures, elapsed };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function run(name, args) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'peervote-bench-'));
  const server = await startServer({ args, env: { DATA_DIR: dataDir, RATE_LIMIT_MAX: '0', DATABASE_URL: '' } });
  const counter = { n: 0 };
  const warm = await load(server.url, WARMUP_SECONDS, counter);
  const measured = await load(server.url, SECONDS, counter);
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
  const acknowledged = [...warm.ids, ...measured.ids];
  const missing = acknowledged.filter((id) => !stored.has(id)).length;
  const sorted = measured.latencies.sort((a, b) => a - b);
  const failures = [...warm.failures, ...measured.failures];
  return {
    name,
    rate: measured.ids.length / measured.elapsed,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    ballots: measured.ids.length,
    failures: failures.reduce((n, [, count]) => n + count, 0),
    failureKinds: failures,
    verified: `${acknowledged.length - missing}/${acknowledged.length}`,
    missing,
  };
}

console.log(
  `Ingest benchmark: demo ballots (8 nominations, 1 write-in), ${CONCURRENCY} concurrent clients, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s measured, SQLite`,
);
const nodeArgs = process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : [];
const astro = await run('Astro endpoint (bin/serve.mjs)', [...nodeArgs, 'bin/serve.mjs']);
const bare = await run('bare node:http, same intake', ['tests/bench/minimal-server.ts']);
console.log('');
console.log('target                              ballots/s    p50 ms    p99 ms   failed   acknowledged ballots in database');
for (const r of [astro, bare]) {
  console.log(
    `${r.name.padEnd(34)} ${r.rate.toFixed(0).padStart(10)} ${r.p50.toFixed(1).padStart(9)} ${r.p99.toFixed(1).padStart(9)} ${String(r.failures).padStart(8)}   ${r.verified}`,
  );
  for (const [kind, count] of r.failureKinds) console.log(`    ${count} × ${kind}`);
}
console.log('');
console.log(
  `Astro's overhead: the bare handler ingests ${(bare.rate / astro.rate).toFixed(2)}× as many ballots per second (p99 ${(astro.p99 / bare.p99).toFixed(2)}× as long through Astro).`,
);
if (astro.missing || bare.missing) {
  console.error('Some acknowledged ballots are missing from the database.');
  process.exitCode = 1;
}
