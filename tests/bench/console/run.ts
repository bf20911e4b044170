// Console benchmark (a script, not a test): the operator console of a large survey.
//
// For each database (SQLite, then a throwaway PostgreSQL from tests/support/postgres.sh): fills a
// new database with BALLOTS (1,000,000) made-up ballots of the demo survey in bulk SQL, starts the
// built server (`npm run build` first; `npm run bench:console` does) on it and a copy of the
// surveys, and invites a roster of PEOPLE (100,000) with `npm run results -- invite` while
// `/api/health` is asked one request after the other (as `bench:people` does). A share of the
// invited people then vote: ballots of the fill are moved onto their personal links. One ballot in
// ten holds a write-in (100,000 in about 40,000 groups), and the largest group is attached to a
// nominee with `writeins resolve`. An owner of every survey enrols with a link from `operators
// link` and a software passkey, signs in, and times `/console/`, `/console/top-doctors-demo/` and
// its write-ins page (its first page, the page at its last waiting group, the nominee search on
// its largest waiting group, and the page at the attached group) as a browser asks for them, one
// request after the other, while the server's resident memory is read from /proc. As a baseline, the same run times how the write-ins
// page read its queue before the API counted the groups: every write-in's spelling counted,
// folded and grouped per request. Then a look for signals is recorded as `results signals`
// records one, made large on purpose (SIGNAL_CLUSTERS clusters, the first naming 100,000 ballots
// of the fill, each other 50), and the signals page is timed: its first page, a page half-way
// down the clusters, and the large cluster's first and middle pages. Last, an invitation a person
// is written as a console send run would have sent it (one in fifty bounced), and the survey's
// mail page is timed: its latest run counted, the first page of its messages, and a page
// filtered by status. Then the owner presses Count on the survey's results page (the count runs
// in the server: the page is timed while it runs, and the count's time printed) and
// `/console/top-doctors-demo/results/` is timed once it has stored it.
//
// Prints each figure beside its budget and exits 1 when one is over: each page ≤ 200 ms p95 (the
// write-ins, signals, mail and results pages ≤ 500 ms p95) and the server ≤ 500 MB while they are asked; at 100,000 people
// invite ≤ 15 s, `/api/health` p99 ≤ 50 ms while it runs and the server ≤ 300 MB.
//
//   npm run bench:console -- [--ballots 1000000] [--people 100000] [--requests 200] [--databases sqlite,postgres]
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DatabaseSync } from 'node:sqlite';
import { sql, type Kysely } from 'kysely';
import { createDatabase, migrateToLatest } from '../../../src/server/db/database.ts';
import type { Database } from '../../../src/server/db/schema.ts';
import { nameKey } from '../../../src/survey/nominees/name-key.ts';
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
const WRITE_INS = `/console/${SLUG}/write-ins/`;
/** The nominee the largest group of write-ins is attached to: one of Neurosurgery's. */
const ATTACHED_TO = 'tdd-1169';
/** The pages timed, each with a text that shows it read what it should. */
const PAGES = [
  { path: '/console/', shows: '<dt>Responded</dt>' },
  { path: `/console/${SLUG}/`, shows: '<dt>Responded</dt>' },
  { path: `/console/${SLUG}/?by=practice-setting`, shows: '<dt>Responded</dt>' },
];
/** The look the signals page is timed on: its clusters, the first one's ballots, and each other one's. */
const SIGNAL_CLUSTERS = 2000;
const LARGE_CLUSTER = 100_000;
const SMALL_CLUSTER = 50;
const SIGNALS_RUN = '0190e4c2-0000-7000-8000-00000000b0b0';
const MAIL_PAGES = [`/console/${SLUG}/mail/`, `/console/${SLUG}/mail/?status=bounced`];
/** The run the bench's invitations were sent by. */
const RUN_ID = '00000000-0000-4000-8000-00000000be4c';
const RESULTS_PAGE = `/console/${SLUG}/results/`;
/** Times the baseline reads the queue as the page once did (each read takes the best part of a second). */
const BASELINE_READS = 20;

/** The budgets at 1,000,000 ballots and 100,000 people. */
const BUDGET = {
  pageP95Ms: 200,
  writeInsP95Ms: 500,
  signalsP95Ms: 500,
  mailPageP95Ms: 500,
  resultsP95Ms: 500,
  pageRssMiB: 500,
  inviteS: 15,
  healthP99Ms: 50,
  inviteRssMiB: 300,
};

const verdicts = new Verdicts();
const nominees = loadNominees(loadSurvey(SLUG));
const attachedName = nominees.find((nominee) => nominee.id === ATTACHED_TO)?.name ?? '';
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
    const reader = createDatabase({ sqliteFile: file, sqliteSynchronous: 'NORMAL', pgPoolMax: 1 }).db;
    return {
      databaseUrl: '',
      db: reader,
      vote(pairs: Array<[string, string]>) {
        const sqlite = new DatabaseSync(file);
        sqlite.exec('PRAGMA busy_timeout = 10000; BEGIN IMMEDIATE');
        const move = sqlite.prepare("UPDATE ballots SET link = 'personal', personal_secret = ? WHERE id = ?");
        for (const [id, secret] of pairs) move.run(secret, id);
        sqlite.exec('COMMIT');
        sqlite.close();
      },
      async recordLook() {
        const { db } = createDatabase({ sqliteFile: file, sqliteSynchronous: 'NORMAL', pgPoolMax: 1 });
        try {
          return await recordLargeLook(db);
        } finally {
          await db.destroy();
        }
      },
      firstBallots(count: number): string[] {
        const sqlite = new DatabaseSync(file, { readOnly: true });
        const rows = sqlite.prepare("SELECT id FROM ballots WHERE project_id = ? AND link = 'public' ORDER BY id LIMIT ?").all(SLUG, count) as Array<{
          id: string;
        }>;
        sqlite.close();
        return rows.map((row) => row.id);
      },
      mail() {
        const sqlite = new DatabaseSync(file);
        sqlite.exec('PRAGMA busy_timeout = 10000');
        sqlite.prepare(MAIL_SQL.sqlite).run(SLUG);
        sqlite.prepare(RUN_SQL).run(RUN_ID, SLUG, PEOPLE);
        sqlite.close();
      },
      async drop() {
        await reader.destroy();
      },
    };
  }
  const databaseUrl = execFileSync('bash', ['tests/support/postgres.sh', 'start'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  const { db } = createDatabase({ databaseUrl, sqliteFile: '', sqliteSynchronous: 'NORMAL', pgPoolMax: 2 });
  await migrateToLatest(db);
  await generateBallotsPostgres(db, BALLOTS, nominees);
  log(`PostgreSQL: ${BALLOTS.toLocaleString('en')} ballots in ${seconds(started)}`);
  return {
    databaseUrl,
    db,
    async vote(pairs: Array<[string, string]>) {
      await sql`UPDATE ballots AS b SET link = 'personal', personal_secret = m.secret
        FROM unnest(${pairs.map(([id]) => id)}::text[], ${pairs.map(([, secret]) => secret)}::text[]) AS m(id, secret) WHERE b.id = m.id`.execute(db);
      await sql`ANALYZE ballots`.execute(db);
    },
    async recordLook() {
      const ids = await recordLargeLook(db);
      await sql`ANALYZE signal_run_ballots`.execute(db);
      return ids;
    },
    async firstBallots(count: number): Promise<string[]> {
      const rows = await db.selectFrom('ballots').select('id').where('project_id', '=', SLUG).where('link', '=', 'public').orderBy('id').limit(count).execute();
      return rows.map((row) => row.id);
    },
    async mail() {
      await sql.raw(MAIL_SQL.postgres.replace('?', `'${SLUG}'`)).execute(db);
      await sql.raw(RUN_SQL.replace('?', `'${RUN_ID}'`).replace('?', `'${SLUG}'`).replace('?', String(PEOPLE))).execute(db);
      await sql`VACUUM ANALYZE mail_messages`.execute(db);
    },
    async drop() {
      await db.destroy();
      execFileSync('bash', ['tests/support/postgres.sh', 'stop', databaseUrl], { cwd: ROOT, stdio: 'ignore' });
    },
  };
}

/**
 * Records a look for signals on the demo survey as `results signals` records one (its run, its
 * clusters, the ballots each names), larger than any honest survey shows: SIGNAL_CLUSTERS
 * clusters, the first naming LARGE_CLUSTER ballots of the fill, each other SMALL_CLUSTER more.
 * The large cluster's ballot ids, in order.
 */
async function recordLargeLook(db: ReturnType<typeof createDatabase>['db']): Promise<string[]> {
  const needed = LARGE_CLUSTER + (SIGNAL_CLUSTERS - 1) * SMALL_CLUSTER;
  const ids = (await db.selectFrom('ballots').select('id').where('project_id', '=', SLUG).orderBy('id').limit(needed).execute()).map((row) => row.id);
  const now = new Date().toISOString();
  await db
    .insertInto('signal_runs')
    .values({
      id: SIGNALS_RUN,
      project_id: SLUG,
      ran_at: now,
      actor: 'bench',
      via: 'command line',
      thresholds: '{}',
      ballots_stored: BALLOTS,
      ballots_read: BALLOTS,
      clusters: SIGNAL_CLUSTERS,
      ballots_named: needed,
    })
    .execute();
  const clusters = Array.from({ length: SIGNAL_CLUSTERS }, (_, position) => ({
    run_id: SIGNALS_RUN,
    position,
    kind: position === 0 ? 'address_burst' : 'near_identical',
    score: SIGNAL_CLUSTERS - position,
    evidence: `bench cluster ${position}`,
    ballots: position === 0 ? LARGE_CLUSTER : SMALL_CLUSTER,
  }));
  for (let from = 0; from < clusters.length; from += 1000)
    await db
      .insertInto('signal_run_clusters')
      .values(clusters.slice(from, from + 1000))
      .execute();
  const positionOf = (n: number) => (n < LARGE_CLUSTER ? 0 : 1 + Math.floor((n - LARGE_CLUSTER) / SMALL_CLUSTER));
  for (let from = 0; from < ids.length; from += 1000)
    await db
      .insertInto('signal_run_ballots')
      .values(ids.slice(from, from + 1000).map((ballot_id, k) => ({ run_id: SIGNALS_RUN, position: positionOf(from + k), ballot_id })))
      .execute();
  return ids.slice(0, LARGE_CLUSTER);
}

/** An invitation to each person with an address, sent by the bench's run a second apart, one in fifty bounced. */
const MAIL_COLUMNS = 'message_id, project_id, kind, email_key, recipient, status, attempts, created_at, sent_at, detail, payload, run_id';
const MAIL_STATUS = "CASE WHEN position % 50 = 0 THEN 'bounced' ELSE 'sent' END";
const MAIL_SQL = {
  sqlite: `INSERT INTO mail_messages (${MAIL_COLUMNS}) SELECT '<' || position || '.bench@peervote.invalid>', project_id, 'invitation', email_key, email_key, ${MAIL_STATUS}, 1, strftime('%Y-%m-%dT%H:%M:%fZ', '2027-01-10 10:00:00', '+' || position || ' seconds'), NULL, '250 2.0.0 OK', NULL, '${RUN_ID}' FROM people WHERE project_id = ? AND email_key != ''`,
  postgres: `INSERT INTO mail_messages (${MAIL_COLUMNS}) SELECT '<' || position || '.bench@peervote.invalid>', project_id, 'invitation', email_key, email_key, ${MAIL_STATUS}, 1, to_char(timestamp '2027-01-10 10:00:00' + position * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), NULL, '250 2.0.0 OK', NULL, '${RUN_ID}' FROM people WHERE project_id = ? AND email_key != ''`,
};
/** The run, ended. */
const RUN_SQL = `INSERT INTO mail_runs (id, project_id, campaign, rate, base_url, started_by, started_by_email, started_at, state, total, skipped, ended_at, outcome) VALUES (?, ?, 'invitation', 6000, 'http://localhost', 'Bench Owner', '${OWNER}', '2027-01-10T09:59:59.000Z', 'done', ?, '{}', '2027-01-11T14:00:00.000Z', 'bench')`;

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
async function timePage(origin: string, { path: pathname, shows }: { path: string; shows: string }, cookie: string, count: number, pid: number | undefined) {
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
    if (n === 0 && !html.includes(shows)) throw new Error(`${pathname} does not show ${shows}`);
    maxRss = Math.max(maxRss, rssMiB(pid));
  }
  return { durations, maxRss };
}

/**
 * The baseline: the write-ins queue read as the page read it before the API counted the groups,
 * every write-in's spelling counted (one pass over the survey's write-ins and their ballots),
 * folded and grouped, those waiting first; the page then read its 50 groups' ballots besides.
 */
async function foldedPerRequest(db: Kysely<Database>): Promise<number> {
  const rows = await db
    .selectFrom('write_ins')
    .innerJoin('ballots', 'ballots.id', 'write_ins.ballot_id')
    .where('ballots.project_id', '=', SLUG)
    .where('ballots.link', '!=', 'demo')
    .select(['write_ins.category_group', 'write_ins.subcategory', 'write_ins.name', (eb) => eb.fn.countAll<string | number>().as('n')])
    .groupBy(['write_ins.category_group', 'write_ins.subcategory', 'write_ins.name'])
    .execute();
  const decided = new Set(
    (await db.selectFrom('write_in_decisions').select(['category_group', 'subcategory', 'name_key']).execute()).map(
      (d) => `${d.category_group}\u0000${d.subcategory}\u0000${d.name_key}`,
    ),
  );
  const groups = new Map<string, { key: string; count: number; decided: boolean }>();
  for (const row of rows) {
    const key = `${row.category_group}\u0000${row.subcategory}\u0000${nameKey(row.name)}`;
    const group = groups.get(key) ?? { key, count: 0, decided: decided.has(key) };
    group.count += Number(row.n);
    groups.set(key, group);
  }
  const queue = [...groups.values()].sort((a, b) => Number(a.decided) - Number(b.decided) || b.count - a.count || a.key.localeCompare(b.key));
  return queue.length;
}

/** The write-ins pages timed: the first, the page at the last group waiting, the nominee search on the largest one waiting, and the page at the attached group (the queue's last). */
async function writeInPages(db: Kysely<Database>) {
  const groups = db.selectFrom('write_in_groups').select(['id', 'writes']).where('project_id', '=', SLUG);
  const last = await groups.where('decided', '=', 0).orderBy('writes').orderBy('name_key', 'desc').limit(1).executeTakeFirstOrThrow();
  const attached = await groups.where('decided', '=', 1).orderBy('writes', 'desc').limit(1).executeTakeFirstOrThrow();
  const largest = await groups.where('decided', '=', 0).orderBy('writes', 'desc').limit(1).executeTakeFirstOrThrow();
  const totals = await db
    .selectFrom('write_in_groups')
    .where('project_id', '=', SLUG)
    .select([(eb) => eb.fn.countAll<string | number>().as('groups'), (eb) => eb.fn.sum<string | number>('writes').as('writes')])
    .executeTakeFirstOrThrow();
  return {
    groups: Number(totals.groups),
    writeIns: Number(totals.writes),
    attachedWrites: Number(attached.writes),
    pages: [
      { path: WRITE_INS, shows: `Groups 1–50 of ${Number(totals.groups).toLocaleString('en')}` },
      { path: `${WRITE_INS}?group=${last.id}`, shows: `id="group-${last.id}"` },
      { path: `${WRITE_INS}?group=${largest.id}&q=Hannah`, shows: 'with this group' },
      { path: `${WRITE_INS}?group=${attached.id}`, shows: `Counts for ${attachedName}` },
    ],
  };
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

    const resolved = await runResults(
      [
        'writeins',
        'resolve',
        SLUG,
        '--name',
        'Hannah Weiss',
        '--category',
        'Surgery / Neurosurgery',
        '--nominee',
        ATTACHED_TO,
        '--why',
        'bench',
        '--by',
        'bench',
      ],
      env,
    );
    if (resolved.code !== 0) throw new Error(`writeins resolve failed: ${resolved.stderr}`);
    const writeIns = await writeInPages(database.db);
    log(
      `${name}: ${writeIns.writeIns.toLocaleString('en')} write-ins in ${writeIns.groups.toLocaleString('en')} groups; ${writeIns.attachedWrites.toLocaleString('en')} of them attached to ${ATTACHED_TO}`,
    );

    const cookie = await signIn(origin, env);
    // The figures the pages are timed with: the survey's page must show the people who voted.
    const survey = await (await fetch(`${origin}/console/${SLUG}/`, { headers: { Cookie: cookie, Accept: 'text/html' } })).text();
    const shown = /<dt>Responded<\/dt><dd>([\d,]+) <span class="note">of ([\d,]+) invited/.exec(survey);
    if (!shown || Number(shown[1].replaceAll(',', '')) !== ids.length)
      throw new Error(`the survey's page shows ${shown?.[0] ?? 'no responded figure'}, not ${ids.length} responded`);
    log(`${name}: the survey's page shows ${shown[1]} responded of ${shown[2]} invited`);
    const timed = [];
    for (const page of [...PAGES, ...writeIns.pages]) {
      log(`${name}: asking for ${page.path} ${REQUESTS} times`);
      await timePage(origin, page, cookie, 10, server.child.pid);
      timed.push({
        page: page.path,
        budget: writeIns.pages.includes(page) ? BUDGET.writeInsP95Ms : BUDGET.pageP95Ms,
        ...(await timePage(origin, page, cookie, REQUESTS, server.child.pid)),
      });
    }
    log(`${name}: the baseline, the queue folded per request, ${BASELINE_READS} times`);
    const baseline: number[] = [];
    for (let n = 0; n < BASELINE_READS + 2; n++) {
      const started = performance.now();
      await foldedPerRequest(database.db);
      if (n >= 2) baseline.push(performance.now() - started);
    }
    const large = await database.recordLook();
    log(`${name}: a look for signals recorded: ${SIGNAL_CLUSTERS} clusters, the first naming ${LARGE_CLUSTER.toLocaleString('en')} ballots`);
    // The connection kept open to the server may have been closed while the look was written: one request that may fail takes it out of the pool.
    await fetch(`${origin}/api/health`).catch(() => undefined);
    const signals = `/console/${SLUG}/signals/`;
    const signalPages = [
      { path: signals, shows: 'bench cluster 19<' },
      { path: `${signals}?after=${SIGNAL_CLUSTERS / 2}`, shows: `bench cluster ${SIGNAL_CLUSTERS / 2 + 1}<` },
      { path: `${signals}?cluster=0`, shows: `/signals/ballots/${large[0]}/exclude` },
      { path: `${signals}?cluster=0&after=${large[LARGE_CLUSTER / 2]}`, shows: `/signals/ballots/${large[LARGE_CLUSTER / 2 + 1]}/exclude` },
    ];
    for (const page of signalPages) {
      log(`${name}: asking for ${page.path} ${REQUESTS} times`);
      await timePage(origin, page, cookie, 10, server.child.pid);
      timed.push({ page: page.path, budget: BUDGET.signalsP95Ms, ...(await timePage(origin, page, cookie, REQUESTS, server.child.pid)) });
    }
    await database.mail();
    log(`${name}: an invitation written to each person, by one run`);
    for (const path of MAIL_PAGES) {
      const page = { path, shows: 'Sent: invitations.' };
      log(`${name}: asking for ${path} ${REQUESTS} times`);
      await timePage(origin, page, cookie, 10, server.child.pid);
      timed.push({ page: path, budget: BUDGET.mailPageP95Ms, ...(await timePage(origin, page, cookie, REQUESTS, server.child.pid)) });
    }
    log(`${name}: Count on ${RESULTS_PAGE}, the page asked one request after the other until it shows the count`);
    const counted = await countOnPage(origin, cookie);
    log(`${name}: asking for ${RESULTS_PAGE} ${REQUESTS} times`);
    const resultsPage = { path: RESULTS_PAGE, shows: '<h2 id="figures-' };
    await timePage(origin, resultsPage, cookie, 10, server.child.pid);
    const results = await timePage(origin, resultsPage, cookie, REQUESTS, server.child.pid);

    console.log(
      `\nconsole benchmark on ${name}: ${BALLOTS.toLocaleString('en')} ballots, ${PEOPLE.toLocaleString('en')} people invited, ${REQUESTS} requests a page`,
    );
    for (const { page, budget, durations } of timed) {
      verdicts.show(`${page} p50`, `${percentile(durations, 0.5).toFixed(0)} ms`);
      verdicts.judge(`${page} p95`, percentile(durations, 0.95), 'ms', budget);
    }
    verdicts.show(
      `baseline: the write-ins queue folded per request, p50 / p95 (${BASELINE_READS} reads)`,
      `${percentile(baseline, 0.5).toFixed(0)} / ${percentile(baseline, 0.95).toFixed(0)} ms`,
    );
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
