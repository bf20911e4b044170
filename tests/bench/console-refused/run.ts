// Refused ballots page benchmark (a script, not a test): the console's /console/{slug}/refused/
// at a survey of 100,000 refused ballots.
//
// Fills a fresh database with COUNT (100,000) refused ballots of the demo survey (a demo ballot's
// answers each, one in a hundred admitted), starts the built server (`npm run build` first;
// `npm run bench:refused` does) on it and a copy of the surveys, signs a manager in with a software
// passkey (a manager's page shows the most: every voter's name and answers), and asks for the
// newest page, a page half-way down, the oldest page and a page back up from it, one request
// after the other. On SQLite, and on PostgreSQL when DATABASE_URL names a cluster (tests/support/
// postgres.sh start prints one), in a database of the run's own, vacuumed and analysed after the
// load as autovacuum would leave it. Prints each page's p50 and p95 beside the budget;
// exits 1 when one is over.
//
//   npm run bench:refused -- [--count 100000] [--requests 60]
//   DATABASE_URL=postgres://… npm run bench:refused      (a database is made in that cluster, and dropped)
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, startServer } from '../../support/server.mjs';
import { runResults } from '../../support/results-cli.ts';
import { demoBallotFields } from '../../support/ballots.mjs';
import { SoftAuthenticator } from '../../support/passkey-authenticator.ts';
import { createDatabase, migrateToLatest } from '../../../src/server/db/database.ts';
import { uuidv7 } from '../../../src/server/ids.ts';
import { sql } from 'kysely';
import pg from 'pg';

const { values: args } = parseArgs({ options: { count: { type: 'string' }, requests: { type: 'string' } } });
const COUNT = Number(args.count ?? 100_000);
const REQUESTS = Number(args.requests ?? 60);
/** Requests left out of the figures: the first of each page warm the server's code and the database's cache. */
const WARM = 5;
const SLUG = 'top-doctors-demo';
const MANAGER = 'manager@bench.example';
/** The budget of each page, p95, at 100,000 refused ballots. */
const BUDGET_P95_MS = 500;
/** Rows written in one statement: 14 values each, well under either database's limit on a statement's parameters. */
const BATCH = 500;

const REASONS = [
  { reason: 'expired', status: 410, problems: [] },
  { reason: 'invalid_link', status: 403, problems: [] },
  { reason: 'already_submitted', status: 409, problems: [] },
  {
    reason: 'invalid_ballot',
    status: 422,
    problems: [{ path: 'medical-license', message: 'Enter your license number as it is written on your license, such as MD-123456.' }],
  },
];

/** Fills the database with COUNT refused ballots, a second apart, oldest first: their ids, oldest first. */
async function fill(settings: Parameters<typeof createDatabase>[0]): Promise<string[]> {
  const { db } = createDatabase(settings);
  await migrateToLatest(db);
  const start = Date.parse('2027-02-01T00:00:00Z');
  const ids: string[] = [];
  for (let from = 0; from < COUNT; from += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, COUNT - from) }, (_, k) => {
      const n = from + k;
      const at = start + n * 1000;
      const refusal = REASONS[n % REASONS.length];
      const id = uuidv7(at);
      ids.push(id);
      const admitted = n % 100 === 7;
      return {
        id,
        project_id: SLUG,
        received_at: new Date(at).toISOString(),
        status: refusal.status,
        reason: refusal.reason,
        problems: JSON.stringify(refusal.problems),
        secret: refusal.reason === 'expired' || refusal.reason === 'invalid_ballot' ? null : `secret-${n}`,
        fields: JSON.stringify(demoBallotFields(n)),
        files: '[]',
        fingerprint: `bench-${n}`,
        admitted_at: admitted ? new Date(at + 3_600_000).toISOString() : null,
        admitted_by: admitted ? 'Bench Reviewer' : null,
        admit_reason: admitted ? 'Mailed before the close' : null,
        ballot_id: admitted ? uuidv7(at + 3_600_000) : null,
      };
    });
    await db.insertInto('refused_ballots').values(rows).execute();
    if (from % 20_000 === 0) process.stderr.write(`  filled ${from.toLocaleString('en')} of ${COUNT.toLocaleString('en')}\n`);
  }
  // As autovacuum leaves a table some time after a bulk load: its statistics read, its pages marked visible (a count from an index then reads no row).
  if (settings.databaseUrl) await sql`VACUUM ANALYZE refused_ballots`.execute(db);
  await db.destroy();
  return ids;
}

/** Signs the manager in through an enrolment link and a software passkey: the session's cookie. */
async function signIn(origin: string, env: Record<string, string>): Promise<string> {
  const made = await runResults(['operators', 'link', MANAGER, '--base-url', origin], env);
  if (made.code !== 0) throw new Error(made.stderr);
  const token = made.stdout.trim().split('/').pop() ?? '';
  const post = (pathname: string, body: unknown) =>
    fetch(`${origin}${pathname}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: origin }, body: JSON.stringify(body) });
  const options = (await (await post('/api/console/enrol/options', { token })).json()) as { options: never; ceremony: string };
  const response = new SoftAuthenticator({ origin }).register(options.options);
  const enrolled = await post('/api/console/enrol', { token, ceremony: options.ceremony, response });
  if (enrolled.status !== 201) throw new Error(`enrolment answered ${enrolled.status}: ${await enrolled.text()}`);
  return (enrolled.headers.get('set-cookie') ?? '').split(';')[0];
}

/** A percentile of some durations. */
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? Number.NaN;

/** Asks for a page REQUESTS times, one after the other: the durations after the warm-up, and the last answer's body. */
async function time(url: string, cookie: string): Promise<{ durations: number[]; body: string }> {
  const durations: number[] = [];
  let body = '';
  for (let n = 0; n < REQUESTS; n++) {
    const started = performance.now();
    const response = await fetch(url, { headers: { Cookie: cookie, Accept: 'text/html' }, redirect: 'manual' });
    body = await response.text();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    if (n >= WARM) durations.push(performance.now() - started);
  }
  return { durations, body };
}

/** Runs the benchmark on one database: each page's p50 and p95. */
async function bench(dialect: 'sqlite' | 'postgres', databaseUrl: string): Promise<Array<{ page: string; p50: number; p95: number }>> {
  const work = mkdtempSync(path.join(tmpdir(), 'peervote-bench-refused-'));
  const surveys = path.join(work, 'surveys');
  const dataDir = path.join(work, 'data');
  cpSync(path.join(ROOT, 'surveys'), surveys, { recursive: true });
  writeFileSync(path.join(surveys, 'operators.yaml'), `operators:\n  - email: ${MANAGER}\n    name: Bench Manager\n    roles:\n      ${SLUG}: manager\n`);
  const env = { SURVEYS_DIR: surveys, DATA_DIR: dataDir, DATABASE_URL: databaseUrl };
  try {
    process.stderr.write(`${dialect}: filling ${COUNT.toLocaleString('en')} refused ballots…\n`);
    const started = performance.now();
    const ids = await fill({
      databaseUrl: databaseUrl || undefined,
      sqliteFile: path.join(dataDir, 'peervote.sqlite'),
      sqliteSynchronous: 'NORMAL',
      pgPoolMax: 2,
    });
    process.stderr.write(`${dialect}: filled in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    const server = await startServer({ env: { ...env, CONSOLE_RATE_LIMIT_MAX: '0' }, timeoutMs: 60_000 });
    try {
      const origin = `http://localhost:${server.port}`;
      const cookie = await signIn(origin, env);
      const base = `${origin}/console/${SLUG}/refused/`;
      const pages = [
        { page: 'newest', url: base },
        { page: 'half-way', url: `${base}?before=${ids[Math.floor(COUNT / 2)]}` },
        { page: 'oldest', url: `${base}?before=${ids[30]}` },
        { page: 'back up', url: `${base}?after=${ids[30]}` },
      ];
      const figures = [];
      for (const { page, url } of pages) {
        const { durations, body } = await time(url, cookie);
        const shown = body.match(/<li class="card refused-ballot"/g)?.length ?? 0;
        if (!body.includes(`<dt>Refused</dt><dd>${COUNT.toLocaleString('en')}</dd>`) || shown === 0)
          throw new Error(`${page}: the page does not show the refused ballots`);
        figures.push({ page: `${page} (${shown} shown)`, p50: percentile(durations, 0.5), p95: percentile(durations, 0.95) });
      }
      return figures;
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** A new database in the PostgreSQL cluster DATABASE_URL names, for this run alone: its URL, and its removal. */
async function freshPostgres(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `peervote_bench_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

const dialects: Array<'sqlite' | 'postgres'> = ['sqlite'];
if (process.env.DATABASE_URL) dialects.push('postgres');
else
  process.stderr.write(
    'PostgreSQL skipped: set DATABASE_URL to a PostgreSQL cluster to make a throwaway database in (tests/support/postgres.sh start prints one).\n',
  );

let over = false;
for (const dialect of dialects) {
  const postgres = dialect === 'postgres' ? await freshPostgres(process.env.DATABASE_URL ?? '') : undefined;
  const figures = await bench(dialect, postgres?.url ?? '').finally(() => postgres?.drop());
  for (const { page, p50, p95 } of figures) {
    const ok = p95 <= BUDGET_P95_MS;
    over ||= !ok;
    console.log(
      `${dialect.padEnd(8)} ${page.padEnd(22)} p50 ${p50.toFixed(1).padStart(6)} ms   p95 ${p95.toFixed(1).padStart(6)} ms   budget ${BUDGET_P95_MS} ms  ${ok ? 'ok' : 'OVER'}`,
    );
  }
}
process.exit(over ? 1 : 0);
