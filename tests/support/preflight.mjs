// What the tests need from the machine beyond node_modules: Debian's Chromium for the browser
// tests, Java for the Nu HTML checker (vnu-jar ships the checker, not a Java to run it) and,
// when the API tests start a throwaway PostgreSQL, its initdb, and the pg_dump and pg_restore of
// the same version for the backup tests. `npm test` runs this first, `npm run test:api` with
// `postgres`: what is missing is installed from Debian's packages when this runs as root, else
// the run stops at once with one line saying what to install.
//
//   node tests/support/preflight.mjs            what `npm test` needs
//   node tests/support/preflight.mjs postgres   what `npm run test:api` needs
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_PATH } from './chromium.ts';

const POSTGRES_SH = fileURLToPath(new URL('./postgres.sh', import.meta.url));
/** Debian's package manager. */
const APT_GET = '/usr/bin/apt-get';

/** True when the API tests start a PostgreSQL of their own (vitest.api.config.ts): under CI or PEERVOTE_TEST_POSTGRES, unless TEST_DATABASE_URL names one. */
export function throwawayPostgresWanted(env = process.env) {
  return !env.TEST_DATABASE_URL && Boolean(env.CI || env.PEERVOTE_TEST_POSTGRES);
}

function executable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** True when a `java` runs from the PATH, as tests/lint/html.mjs calls it. */
function javaRuns() {
  try {
    execFileSync('java', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** PostgreSQL's bin folder as tests/support/postgres.sh finds it, or '' when there is none. */
function postgresBin() {
  try {
    return execFileSync('bash', [POSTGRES_SH, 'bin'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

/** What is missing, as Debian packages with the line that says so. */
function missing(checks) {
  const lacking = [];
  if (checks.includes('chromium') && !executable(CHROMIUM_PATH)) {
    // A CHROMIUM_PATH of the tester's own is theirs to fix: Debian's package installs /usr/bin/chromium.
    if (process.env.CHROMIUM_PATH) fail(`CHROMIUM_PATH=${CHROMIUM_PATH} is not an executable Chromium: fix it, or unset it to use Debian's /usr/bin/chromium.`);
    lacking.push({ pkg: 'chromium', what: `Chromium at ${CHROMIUM_PATH}` });
  }
  if (checks.includes('java') && !javaRuns()) lacking.push({ pkg: 'default-jre-headless', what: 'Java (for the Nu HTML checker)' });
  if (checks.includes('postgres') && throwawayPostgresWanted()) {
    const bin = postgresBin();
    if (!bin) lacking.push({ pkg: 'postgresql', what: "PostgreSQL's initdb (under /usr/lib/postgresql/*/bin)" });
    // The backup tests run the server's own pg_dump and pg_restore, which Debian's postgresql-N brings with postgresql-client-N.
    else if (!['pg_dump', 'pg_restore'].every((name) => executable(path.join(bin, name)))) {
      lacking.push({ pkg: `postgresql-client-${path.basename(path.dirname(bin))}`, what: `PostgreSQL's pg_dump and pg_restore (in ${bin})` });
    }
  }
  return lacking;
}

function fail(line) {
  console.error(`preflight: ${line}`);
  process.exit(1);
}

/** Checks `checks` (chromium, java, postgres); installs what is missing as root, else stops with one line. */
function preflight(checks) {
  let lacking = missing(checks);
  if (lacking.length === 0) return;
  const packages = lacking.map((item) => item.pkg);
  const what = lacking.map((item) => item.what).join(' and ');
  if (process.getuid?.() !== 0 || !executable(APT_GET)) {
    fail(`the tests need ${what}: install ${packages.length > 1 ? 'them' : 'it'} with \`sudo apt-get install -y ${packages.join(' ')}\`.`);
  }
  console.error(`preflight: installing ${packages.join(' ')} from Debian's packages for ${what}`);
  const apt = { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } };
  try {
    execFileSync(APT_GET, ['update', '-q'], apt);
    execFileSync(APT_GET, ['install', '-y', '-q', ...packages], apt);
  } catch {
    fail(`installing ${packages.join(' ')} failed (apt-get's output is above): install ${packages.length > 1 ? 'them' : 'it'} by hand.`);
  }
  lacking = missing(checks);
  if (lacking.length > 0) fail(`${lacking.map((item) => item.what).join(' and ')} still missing after installing ${packages.join(' ')}.`);
}

// Run as a script, not when vitest.api.config.ts imports throwawayPostgresWanted().
if (process.argv[1] === fileURLToPath(import.meta.url)) preflight(process.argv.length > 2 ? process.argv.slice(2) : ['chromium', 'java', 'postgres']);
