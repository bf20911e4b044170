// Console benchmark (a script, not a test): the operator console of a large survey.
//
// For each database (SQLite, then a throwaway PostgreSQL from tests/support/postgres.sh): fills a
// new database with BALLOTS (1,000,000) made-up ballots of the demo survey in bulk SQL, starts the
// built server (`npm run build` first; `npm run bench:console` does) on it and a copy of the
// surveys, and invites a roster of PEOPLE (100,000) with `npm run results -- invite` while
// `/api/health` is asked one request after the other (as `bench:people` does). A share of the
// invited people then vote: ballots of the fill are moved onto their personal links. An owner of
// every survey enrols with a link from `operators link` and a software passkey, signs in, and
// times `/console/` and `/console/top-doctors-demo/` as a browser asks for them, one request after
// the other, while the server's resident memory is read from /proc. Then the owner presses Count on
// the survey's results page (the count runs in the server: the page is timed while it runs, and the
// count's time printed) and `/console/top-doctors-demo/results/` is timed once it has stored it.
//
// Prints each figure beside its budget and exits 1 when one is over: each page ≤ 200 ms p95 (the
// results page ≤ 500 ms) and the server ≤ 500 MB while they are asked; at 100,000 people invite
// ≤ 15 s, `/api/health` p99 ≤ 50 ms while it runs and the server ≤ 300 MB.
//
//   npm run bench:console -- [--ballots 1000000] [--people 100000] [--requests 200] [--databases sqlite,postgres]
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DatabaseSync } from 'node:sqlite';
import { sql } from 'kysely';
import { createDatabase, migrateToLatest } from '../../../src/server/db/database.ts';
import { loadSurvey } from '../../../src/survey/config/loader.ts';
import { loadNominees } from '../../../src/survey/nominees/nominee-file.ts';
import { ROOT, startServer } from '../../support/server.mjs';
import { runResults } from '../../support/results-cli.ts';
import { SoftAuthenticator } from '../../support/passkey-authenticator.ts';
import { generateBallots, generateBallotsPostgres } from '../tally/generate.ts';
import { inviteWatched, personalSecret, rosterIn, writeRoster } from '../support/invite.ts';
import { percentile, rssMiB, Verdicts } from '../support/measure.ts';

const { values: args } = parseArgs({
  options: { ballots: { type: 'string' }, people: { type: 'string' }, requests: { type: 'string' }, databases: { type: 'string' } },
});
const BALLOTS = Number(args.ballots ?? 1_000_000);
const PEOPLE = Number(args.people ?? 100_000);
const REQUESTS = Number(args.requests ?? 200);
const DATABASES = (args.databases ?? 'sqlite,postgres').split(',');
const unknown = DATABASES.filter((name) => name !== 'sqlite' && name !== 'postgres');
if (unknown.length) throw new Error(`--databases takes sqlite and postgres; not ${unknown.join(', ')}.`);
const SLUG = 'top-doctors-demo';
/** Of the invited people, those who vote: their ballots move onto their personal links. */
const VOTING_SHARE = 0.4;
const OWNER = 'bench-owner@bench.example';
const PAGES = ['/console/', `/console/${SLUG}/`, `/console/${SLUG}/?by=practice-setting`];
const RESULTS_PAGE = `/console/${SLUG}/results/`;

/** The budgets at 1,000,000 ballots and 100,000 people. */
const BUDGET = { pageP95Ms: 200, resultsP95Ms: 500, pageRssMiB: 500, inviteS: 15, healthP99Ms: 50, inviteRssMiB: 300 };

const verdicts = new Verdicts();
const nominees = loadNominees(loadSurvey(SLUG));
const log = (line: string) => process.stderr.write(`${line}\n`);
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** A new database of either kind, migrated and filled with the ballots: the server's settings for it, and how to move ballots onto personal links and to drop it. */
async function filledDatabase(kind: string, dataDir: string) {
  const started = performance.now();
  if (kind === 'sqlite') {
    const file = path.join(dataDir, 'peervote.sqlite');
    const { db } = createDatabase({ sqliteFile: file, sqliteSynchronous: 'NORMAL', pgPoolMax: 1 });
    await migrateToLatest(db);
    await db.destroy();
    generateBallots(file, BALLOTS, nominees);
    log(`SQLite: ${BALLOTS.toLocaleString('en')} ballots in ${seconds(started)}`);
    return {
      databaseUrl: '',
      vote(pairs: Array<[string, string]>) {
        const sqlite = new DatabaseSync(file);
        sqlite.exec('PRAGMA busy_timeout = 10000; BEGIN IMMEDIATE');
        const move = sqlite.prepare("UPDATE ballots SET link = 'personal', personal_secret = ? WHERE id = ?");
        for (const [id, secret] of pairs) move.run(secret, id);
        sqlite.exec('COMMIT');
        sqlite.close();
      },
      firstBallots(count: number): string[] {
        const sqlite = new DatabaseSync(file, { readOnly: true });
        const rows = sqlite.prepare("SELECT id FROM ballots WHERE project_id = ? AND link = 'public' ORDER BY id LIMIT ?").all(SLUG, count) as Array<{
          id: string;
        }>;
        sqlite.close();
        return rows.map((row) => row.id);
      },
      drop() {},
    };
  }
  const databaseUrl = execFileSync('bash', ['tests/support/postgres.sh', 'start'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  const { db } = createDatabase({ databaseUrl, sqliteFile: '', sqliteSynchronous: 'NORMAL', pgPoolMax: 2 });
  await migrateToLatest(db);
  await generateBallotsPostgres(db, BALLOTS, nominees);
  log(`PostgreSQL: ${BALLOTS.toLocaleString('en')} ballots in ${seconds(started)}`);
  return {
    databaseUrl,
    async vote(pairs: Array<[string, string]>) {
      await sql`UPDATE ballots AS b SET link = 'personal', personal_secret = m.secret
        FROM unnest(${pairs.map(([id]) => id)}::text[], ${pairs.map(([, secret]) => secret)}::text[]) AS m(id, secret) WHERE b.id = m.id`.execute(db);
      await sql`ANALYZE ballots`.execute(db);
    },
    async firstBallots(count: number): Promise<string[]> {
      const rows = await db.selectFrom('ballots').select('id').where('project_id', '=', SLUG).where('link', '=', 'public').orderBy('id').limit(count).execute();
      return rows.map((row) => row.id);
    },
    async drop() {
      await db.destroy();
      execFileSync('bash', ['tests/support/postgres.sh', 'stop', databaseUrl], { cwd: ROOT, stdio: 'ignore' });
    },
  };
}

/** A signed-in owner: enrols with a link from the command line and a software passkey; the session's cookie. */
async function signIn(origin: string, env: Record<string, string>): Promise<string> {
  const linked = await runResults(['operators', 'link', OWNER, '--base-url', origin], env);
  if (linked.code !== 0) throw new Error(`operators link failed: ${linked.stderr}`);
  const token = linked.stdout.trim().split('/').pop() ?? '';
  const authenticator = new SoftAuthenticator({ origin });
  const post = (pathname: string, body: unknown) =>
    fetch(`${origin}${pathname}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', Origin: origin },
      body: JSON.stringify(body),
    });
  const options = await post('/api/console/enrol/options', { token });
  if (options.status !== 200) throw new Error(`enrolment options answered ${options.status}: ${await options.text()}`);
  const { options: creation, ceremony } = await options.json();
  const enrolled = await post('/api/console/enrol', { token, ceremony, response: authenticator.register(creation) });
  if (enrolled.status !== 201) throw new Error(`enrolment answered ${enrolled.status}: ${await enrolled.text()}`);
  const cookie = enrolled.headers.get('set-cookie')?.split(';')[0];
  if (!cookie) throw new Error('enrolment gave no session cookie');
  return cookie;
}

/** What each timed page must show: its figures, not a page that shows none. */
const SHOWS = (pathname: string) => (pathname === RESULTS_PAGE ? '<h2 id="figures-' : '<dt>Responded</dt>');

/** Presses Count on the results page as its form does (the session's CSRF token from a page): the time until the page shows the count stored, and the page's durations meanwhile. */
async function countOnPage(origin: string, cookie: string) {
  const page = await (await fetch(`${origin}/console/`, { headers: { Cookie: cookie, Accept: 'text/html' } })).text();
  const csrf = /data-csrf="([^"]+)"/.exec(page)?.[1];
  if (!csrf) throw new Error('the console gave no CSRF token');
  const started = performance.now();
  const pressed = await fetch(`${origin}/api/console/surveys/${SLUG}/results/count`, {
    method: 'POST',
    headers: { Cookie: cookie, 'Content-Type': 'application/json', Accept: 'application/json', Origin: origin, 'X-Console-CSRF': csrf },
    body: '{}',
  });
  if (pressed.status !== 200 && pressed.status !== 202) throw new Error(`Count answered ${pressed.status}: ${await pressed.text()}`);
  const during: number[] = [];
  for (;;) {
    const asked = performance.now();
    const html = await (await fetch(`${origin}${RESULTS_PAGE}`, { headers: { Cookie: cookie, Accept: 'text/html' } })).text();
    during.push(performance.now() - asked);
    if (html.includes('<h2 id="figures-') && !html.includes('is running.')) break;
    if (html.includes('failed:')) throw new Error(`the count failed: ${/failed: ([^<]*)/.exec(html)?.[1]}`);
  }
  return { countMs: performance.now() - started, during };
}

/** Asks for a page as a browser's navigation does, `count` times one after the other: the durations and the server's highest memory. */
async function timePage(origin: string, pathname: string, cookie: string, count: number, pid: number | undefined) {
  const durations: number[] = [];
  let maxRss = rssMiB(pid);
  for (let n = 0; n < count; n++) {
    const started = performance.now();
    const response = await fetch(`${origin}${pathname}`, {
      headers: { Cookie: cookie, Accept: 'text/html', 'Sec-Fetch-Mode': 'navigate' },
      redirect: 'manual',
    });
    const html = await response.text();
    durations.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`${pathname} answered ${response.status}: ${html.slice(0, 300)}`);
    if (n === 0 && !html.includes(SHOWS(pathname))) throw new Error(`${pathname} shows no figures`);
    maxRss = Math.max(maxRss, rssMiB(pid));
  }
  return { durations, maxRss };
}

for (const kind of DATABASES) {
  const name = kind === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const work = mkdtempSync(path.join(tmpdir(), `peervote-bench-console-${kind}-`));
  const surveys = path.join(work, 'surveys');
  const dataDir = path.join(work, 'data');
  cpSync(path.join(ROOT, 'surveys'), surveys, { recursive: true });
  writeFileSync(path.join(surveys, 'operators.yaml'), `operators:\n  - email: ${OWNER}\n    name: Bench Owner\n    roles:\n      "*": owner\n`);
  const roster = rosterIn(work);
  writeRoster(roster, PEOPLE);
  const database = await filledDatabase(kind, dataDir);
  const env = {
    SURVEYS_DIR: surveys,
    DATA_DIR: dataDir,
    DATABASE_URL: database.databaseUrl,
    RATE_LIMIT_MAX: '0',
    LINK_RATE_LIMIT_MAX: '0',
    CONSOLE_RATE_LIMIT_MAX: '0',
    PEERVOTE_PRIVATE_DIR: '',
  };
  const server = await startServer({ env, timeoutMs: 120_000 });
  const origin = server.url.replace('127.0.0.1', 'localhost');
  try {
    log(`${name}: server at ${origin}, ${rssMiB(server.child.pid).toFixed(0)} MiB at start; inviting ${PEOPLE.toLocaleString('en')} people`);
    const invited = await inviteWatched({ url: server.url, pid: server.child.pid, slug: SLUG, roster, out: path.join(work, 'links.csv'), env });
    const secrets = invited.links
      .trim()
      .split('\n')
      .slice(1, 1 + Math.round(PEOPLE * VOTING_SHARE))
      .map(personalSecret);
    const ids = await database.firstBallots(secrets.length);
    await database.vote(ids.map((id, n) => [id, secrets[n]]));
    // The same roster once more: invite reads the people in again, and marks who has voted (the
    // API marks each as their ballot is stored; these were moved under it).
    const again = await runResults(['invite', SLUG, '--roster', roster, '--out', path.join(work, 'links-again.csv')], env);
    if (again.code !== 0) throw new Error(`the second invite failed: ${again.stderr}`);
    log(`${name}: ${ids.length.toLocaleString('en')} of them voted on their personal links`);

    const cookie = await signIn(origin, env);
    // The figures the pages are timed with: the survey's page must show the people who voted.
    const survey = await (await fetch(`${origin}/console/${SLUG}/`, { headers: { Cookie: cookie, Accept: 'text/html' } })).text();
    const shown = /<dt>Responded<\/dt><dd>([\d,]+) <span class="note">of ([\d,]+) invited/.exec(survey);
    if (!shown || Number(shown[1].replaceAll(',', '')) !== ids.length)
      throw new Error(`the survey's page shows ${shown?.[0] ?? 'no responded figure'}, not ${ids.length} responded`);
    log(`${name}: the survey's page shows ${shown[1]} responded of ${shown[2]} invited`);
    const timed = [];
    for (const page of PAGES) {
      log(`${name}: asking for ${page} ${REQUESTS} times`);
      await timePage(origin, page, cookie, 10, server.child.pid);
      timed.push({ page, ...(await timePage(origin, page, cookie, REQUESTS, server.child.pid)) });
    }
    log(`${name}: Count on ${RESULTS_PAGE}, the page asked one request after the other until it shows the count`);
    const counted = await countOnPage(origin, cookie);
    log(`${name}: asking for ${RESULTS_PAGE} ${REQUESTS} times`);
    await timePage(origin, RESULTS_PAGE, cookie, 10, server.child.pid);
    const results = await timePage(origin, RESULTS_PAGE, cookie, REQUESTS, server.child.pid);

    console.log(
      `\nconsole benchmark on ${name}: ${BALLOTS.toLocaleString('en')} ballots, ${PEOPLE.toLocaleString('en')} people invited, ${REQUESTS} requests a page`,
    );
    for (const { page, durations } of timed) {
      verdicts.show(`${page} p50`, `${percentile(durations, 0.5).toFixed(0)} ms`);
      verdicts.judge(`${page} p95`, percentile(durations, 0.95), 'ms', BUDGET.pageP95Ms);
    }
    verdicts.show('results page: Count, until the page shows it', `${(counted.countMs / 1000).toFixed(1)} s`);
    verdicts.show(
      `${RESULTS_PAGE} while the count runs (${counted.during.length} asks) p50, p95`,
      `${percentile(counted.during, 0.5).toFixed(0)} ms, ${percentile(counted.during, 0.95).toFixed(0)} ms`,
    );
    verdicts.show(`${RESULTS_PAGE} p50`, `${percentile(results.durations, 0.5).toFixed(0)} ms`);
    verdicts.judge(`${RESULTS_PAGE} p95`, percentile(results.durations, 0.95), 'ms', BUDGET.resultsP95Ms);
    verdicts.judge("server's resident memory, highest while the pages are asked", Math.max(...timed.map((t) => t.maxRss)), 'MiB', BUDGET.pageRssMiB);
    verdicts.show("server's resident memory, after the count", `${results.maxRss.toFixed(0)} MiB`);
    verdicts.judge(`invite of ${PEOPLE.toLocaleString('en')} people (whole process)`, invited.ms / 1000, 's', BUDGET.inviteS);
    verdicts.show('a new link opens, after invite ends, in', `${(invited.takenUpMs / 1000).toFixed(1)} s`);
    verdicts.judge(`/api/health p99 during invite and 2 s on (${invited.health.length} asks)`, percentile(invited.health, 0.99), 'ms', BUDGET.healthP99Ms);
    verdicts.judge("server's resident memory, highest during invite", invited.maxRss, 'MiB', BUDGET.inviteRssMiB);
  } catch (error) {
    log(`${name}: the server (exit ${server.child.exitCode}, signal ${server.child.signalCode}) last wrote:\n${server.output().slice(-3000)}`);
    throw error;
  } finally {
    await server.stop();
    await database.drop();
    rmSync(work, { recursive: true, force: true });
  }
}
console.log(verdicts.within ? '\nwithin every budget' : '\nOVER BUDGET: see the lines above');
process.exit(verdicts.within ? 0 : 1);
