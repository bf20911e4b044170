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
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, startServer } from '../../support/server.mjs';
import { percentile, rssMiB, Verdicts, watch } from '../support/measure.ts';
import { inviteWatched, rosterIn, writeRoster } from '../support/invite.ts';

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
const roster = rosterIn(work);
writeRoster(roster, COUNT);

const verdicts = new Verdicts();
const verdict = verdicts.judge.bind(verdicts);

const env = { SURVEYS_DIR: surveys, DATA_DIR: dataDir, DATABASE_URL: '', RATE_LIMIT_MAX: '0', LINK_RATE_LIMIT_MAX: '0', PEERVOTE_PRIVATE_DIR: '' };
const server = await startServer({ env, timeoutMs: 120_000 });
try {
  process.stderr.write(`${COUNT} people; server at ${server.url}, ${rssMiB(server.child.pid).toFixed(0)} MiB at start\n`);
  const invited = await inviteWatched({ url: server.url, pid: server.child.pid, slug: SLUG, roster, out: path.join(work, 'links.csv'), env });
  process.stderr.write(invited.stderr);
  const inviting = { durations: invited.health, maxRss: invited.maxRss };
  const takenUpMs = invited.takenUpMs;

  // A person added to the file by hand: the API reads it again, and the new link opens.
  const file = path.join(surveys, SLUG, 'prepopulation.yaml');
  const added = 'benchHandAdded0001';
  const editing = watch(`${server.url}/api/health`, server.child.pid);
  const edited = performance.now();
  appendFileSync(file, `${added}:\n  email: added@bench.example\n  name: Added By Hand\n`);
  while ((await fetch(`${server.url}/api/survey/link/${SLUG}?secret=${added}`)).status !== 200) {
    if (performance.now() - edited > 60_000) throw new Error('the person added by hand did not open within a minute');
  }
  const editMs = performance.now() - edited;
  const afterEdit = await editing.stop();

  console.log(`\npeople benchmark: ${COUNT} people invited to ${SLUG} (SQLite)`);
  verdict('invite (whole process)', invited.ms / 1000, 's', BUDGET.inviteMs / 1000);
  verdicts.show('a new link opens, after invite ends, in', `${(takenUpMs / 1000).toFixed(1)} s`);
  verdict(`/api/health p99 during invite and 2 s on (${inviting.durations.length} asks)`, percentile(inviting.durations, 0.99), 'ms', BUDGET.healthP99Ms);
  verdicts.show('/api/health slowest during invite and 2 s on', `${Math.max(...inviting.durations).toFixed(0)} ms`);
  verdict("API's resident memory, highest during invite", inviting.maxRss, 'MiB', BUDGET.rssMiB);
  verdicts.show('a person added by hand opens after', `${(editMs / 1000).toFixed(1)} s`);
  verdict(`/api/health p99 while the file is read (${afterEdit.durations.length} asks)`, percentile(afterEdit.durations, 0.99), 'ms', BUDGET.healthP99Ms);
  verdict("API's resident memory, highest while the file is read", afterEdit.maxRss, 'MiB', BUDGET.rssMiB);
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
process.exit(verdicts.within ? 0 : 1);
