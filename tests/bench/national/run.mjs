// The national benchmark (a script, not a test): a vote of a whole country on PostgreSQL.
// Starts a throwaway PostgreSQL (tests/support/postgres.sh), writes the demo survey with a
// 100,000-nominee list into a temp surveys folder (SURVEYS_DIR: the API reads its surveys at
// run time, so the built site stays as it is), starts two API processes (bin/serve.mjs) on that
// one database, and sends ballots at a held rate with a burst of 2,000/s in the second quarter;
// midway it kills one process with SIGKILL, and its voters send their ballots again to the
// other (voters.mjs). At the end every acknowledged ballot is looked up in the database.
//
//   npm run bench:national                                 1,000,000 ballots at 500/s (about half an hour on a quiet
//                                                          2-core machine; about an hour on a busy one, at 290/s)
//   npm run bench:national -- --ballots 20000 --rate 500   a shorter run
//
// Progress goes to stderr; the last line on stdout is
// `national: N acknowledged, N stored, 0 lost, p99 X ms at R ballots/s`, where lost counts
// ballots acknowledged (2xx) but not in the database. It stops by itself and removes its
// processes, files and database; traffic goes to 127.0.0.1 only.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { ROOT, startServer } from '../../support/server.mjs';
import { vote } from './voters.mjs';

const { values } = parseArgs({ options: { ballots: { type: 'string', default: '1000000' }, rate: { type: 'string', default: '500' } } });
const BALLOTS = Number(values.ballots);
const RATE = Number(values.rate);
const NOMINEES = 100_000;
const BURST_RATE = 2000;
/** The burst: a minute at 2,000 ballots/s, or an eighth of a shorter run. */
const BURST = Math.min(BURST_RATE * 60, Math.floor(BALLOTS / 8));
/** Ballots sent but not yet acknowledged, past which no new voter starts: the servers have fallen behind. */
const MOST_IN_FLIGHT = 4000;
if (!(BALLOTS >= 100 && RATE > 0)) {
  console.error('Usage: npm run bench:national -- [--ballots N (at least 100)] [--rate ballots per second]');
  process.exit(2);
}

const say = (line) => process.stderr.write(`${line}\n`);
const cleanups = [];
let stopping = false;
async function cleanUp() {
  while (cleanups.length)
    await cleanups
      .pop()()
      .catch((error) => say(`clean-up: ${error.message}`));
}
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    stopping = true;
    cleanUp().then(() => process.exit(130));
  });

/** How many ballots should have started `seconds` into the run: the held rate, the burst from a quarter of the ballots, the held rate again. */
function scheduled(seconds) {
  const quarter = Math.floor(BALLOTS / 4);
  const burstStarts = quarter / RATE;
  const burstEnds = burstStarts + BURST / BURST_RATE;
  if (seconds < burstStarts) return Math.floor(RATE * seconds);
  if (seconds < burstEnds) return quarter + Math.floor(BURST_RATE * (seconds - burstStarts));
  return Math.min(BALLOTS, quarter + BURST + Math.floor(RATE * (seconds - burstEnds)));
}

/** The ids of the generated list, from its CSV (first column, after the header). */
function nomineeIds(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((line) => line.slice(0, line.indexOf(',')));
}

/** Every ballot id the database holds, read in pages. */
async function storedIds(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const ids = new Set();
  let after = '';
  for (;;) {
    const { rows } = await client.query('SELECT id FROM ballots WHERE id > $1 ORDER BY id LIMIT 50000', [after]);
    for (const row of rows) ids.add(row.id);
    if (rows.length < 50000) break;
    after = rows.at(-1).id;
  }
  await client.end();
  return ids;
}

try {
  say(`national: ${BALLOTS} ballots at ${RATE}/s, a burst of ${BURST} at ${BURST_RATE}/s, one of two API processes killed midway, PostgreSQL`);
  const databaseUrl = execFileSync('bash', ['tests/support/postgres.sh', 'start'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  cleanups.push(async () => execFileSync('bash', ['tests/support/postgres.sh', 'stop', databaseUrl], { cwd: ROOT, stdio: 'ignore' }));
  const work = mkdtempSync(path.join(tmpdir(), 'peervote-national-'));
  cleanups.push(async () => rmSync(work, { recursive: true, force: true }));
  const surveysDir = path.join(work, 'surveys');
  cpSync(path.join(ROOT, 'surveys'), surveysDir, { recursive: true });
  const generated = spawnSync(process.execPath, ['bin/nominees-generate.ts', 'top-doctors-demo', '--count', String(NOMINEES)], {
    cwd: ROOT,
    env: { ...process.env, SURVEYS_DIR: surveysDir },
    encoding: 'utf8',
  });
  if (generated.status !== 0) throw new Error(`nominees:generate failed: ${generated.stderr}`);
  const ids = nomineeIds(path.join(surveysDir, 'top-doctors-demo/nominees.csv'));
  say(`  a list of ${ids.length} nominees written; starting two API processes`);

  // A pool of 50 connections a process (PG_POOL_MAX; 10 by default), as a deployment sized for a country's vote sets it:
  // a ballot's transaction is a few round trips, and at hundreds of ballots a second ten connections are the bottleneck.
  const env = { DATABASE_URL: databaseUrl, SURVEYS_DIR: surveysDir, DATA_DIR: path.join(work, 'data'), RATE_LIMIT_MAX: '0', PG_POOL_MAX: '50' };
  const servers = [];
  // One after the other: the first migrates the database.
  for (const name of ['A', 'B']) {
    const server = await startServer({ env, timeoutMs: 120_000 });
    cleanups.push(() => server.stop());
    servers.push({ name, ...server, agent: new http.Agent({ keepAlive: true, maxSockets: 256 }), alive: true });
  }

  const latencies = new Float64Array(BALLOTS);
  const acknowledged = [];
  const failures = new Map();
  const tally = { retries: 0, replayed: 0, causes: new Map() };
  let started = 0;
  let settled = 0;
  let killedAt;
  const begin = performance.now();
  let lastAck = begin;
  const progress = setInterval(() => {
    const seconds = (performance.now() - begin) / 1000;
    say(
      `  ${seconds.toFixed(0)} s: ${started} sent, ${acknowledged.length} acknowledged, ${started - settled} in flight, ${tally.retries} retries, ${(acknowledged.length / seconds).toFixed(0)} ballots/s`,
    );
  }, 5000);
  const all = [];
  while (started < BALLOTS && !stopping) {
    const due = scheduled((performance.now() - begin) / 1000);
    while (started < due && started - settled < MOST_IN_FLIGHT) {
      const n = started++;
      all.push(
        vote({ n, ids, servers, tally }).then((result) => {
          settled++;
          if (result.id) {
            latencies[acknowledged.length] = result.ms;
            acknowledged.push(result.id);
            lastAck = performance.now();
          } else failures.set(result.failure, (failures.get(result.failure) ?? 0) + 1);
        }),
      );
      if (killedAt === undefined && started >= BALLOTS / 2) {
        killedAt = started;
        servers[0].alive = false;
        servers[0].child.kill('SIGKILL');
        say(`  ballot ${started}: API process A killed (SIGKILL); its voters send again to B`);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await Promise.all(all);
  clearInterval(progress);
  const seconds = (lastAck - begin) / 1000;
  for (const server of servers) server.agent.destroy();

  say('  looking every acknowledged ballot up in the database');
  const stored = await storedIds(databaseUrl);
  const unique = new Set(acknowledged);
  const lost = [...unique].filter((id) => !stored.has(id)).length;
  const sorted = latencies.subarray(0, acknowledged.length).sort();
  const p99 = sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] ?? Number.NaN;
  console.log(`sent ${BALLOTS}; ${tally.retries} retries; ${tally.replayed} answered from an earlier attempt (Idempotent-Replayed)`);
  console.log(`duplicates: ${acknowledged.length - unique.size} acknowledged twice, ${stored.size - (unique.size - lost)} stored but never acknowledged`);
  for (const [cause, count] of tally.causes) console.log(`sent again: ${count} × ${cause}`);
  for (const [kind, count] of failures) console.log(`not acknowledged: ${count} × ${kind}`);
  console.log(
    `national: ${acknowledged.length} acknowledged, ${stored.size} stored, ${lost} lost, p99 ${p99.toFixed(0)} ms at ${(acknowledged.length / seconds).toFixed(0)} ballots/s`,
  );
  if (lost || failures.size) process.exitCode = 1;
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
