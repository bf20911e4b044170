// PostgreSQL's own client programs, pg_dump and pg_restore: which one to run against a server,
// how to give it the database without showing the password to `ps`, and running it line by line.
import { execFileSync, spawn } from 'node:child_process';
import { accessSync, constants, readdirSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { OperatorError } from '../operator.ts';

/** One of PostgreSQL's client programs, found on this machine, with its version. */
export interface PostgresProgram {
  file: string;
  version: string;
  major: number;
}

/** Where Debian (and PostgreSQL's own apt repository) installs each major version's programs: postgresql-client-N. */
const DEBIAN_VERSIONS = '/usr/lib/postgresql';

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The program's version, as it prints it ("pg_dump (PostgreSQL) 15.18 (Debian …)"); undefined when it does not run. */
function versionOf(file: string): PostgresProgram | undefined {
  try {
    const text = execFileSync(file, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 });
    const match = /\(PostgreSQL\)\s+((\d+)[.\d]*)/.exec(text);
    return match ? { file, version: match[1], major: Number(match[2]) } : undefined;
  } catch {
    return undefined;
  }
}

/** Where to look for the programs: the PATH, and the folder of Debian's versions. */
export interface ProgramPlaces {
  path?: string;
  versions?: string;
}

/** Every copy of the program this machine has: the first on the PATH, then each of Debian's versions. */
function installed(name: string, { path: searched = process.env.PATH ?? '', versions = DEBIAN_VERSIONS }: ProgramPlaces): PostgresProgram[] {
  const files: string[] = [];
  const onPath = searched
    .split(path.delimiter)
    .filter(Boolean)
    .map((dir) => path.join(dir, name))
    .find(executable);
  if (onPath) files.push(onPath);
  let majors: string[] = [];
  try {
    majors = readdirSync(versions).filter((dir) => /^\d+$/.test(dir));
  } catch {
    // Not Debian's layout: the PATH alone.
  }
  for (const major of majors) {
    const file = path.join(versions, major, 'bin', name);
    if (executable(file)) files.push(file);
  }
  return files.map(versionOf).filter((program): program is PostgresProgram => program !== undefined);
}

/** What to install for the programs of one major version, in one phrase. */
function installHint(major: number | undefined): string {
  return major
    ? `install PostgreSQL's client programs of the server's version ${major} (apt-get install postgresql-client-${major}; Debian's postgresql-client brings its own version)`
    : "install PostgreSQL's client programs (apt-get install postgresql-client)";
}

/**
 * The program `name` to run against a server of major version `serverMajor`: the one of that
 * version (on the PATH or in /usr/lib/postgresql/<major>/bin), else the newest newer one; with
 * no server, the newest. pg_dump refuses a server newer than itself, so an older pg_dump is
 * refused here, in one line that says what to install; an older pg_restore comes with a warning.
 */
export function postgresProgram(
  name: 'pg_dump' | 'pg_restore',
  serverMajor?: number,
  places: ProgramPlaces = {},
): { program: PostgresProgram; warning?: string } {
  const found = installed(name, places).sort((a, b) => b.major - a.major);
  if (!found.length) throw new OperatorError(`${name} is not installed (it is not on the PATH nor in ${DEBIAN_VERSIONS}): ${installHint(serverMajor)}.`);
  if (serverMajor === undefined) return { program: found[0] };
  const program = found.find((candidate) => candidate.major === serverMajor) ?? found[0];
  if (program.major >= serverMajor) return { program };
  const older = `${name} ${program.version} (${program.file}) is older than the PostgreSQL ${serverMajor} server`;
  if (name === 'pg_dump') throw new OperatorError(`${older}, which it cannot dump: ${installHint(serverMajor)}.`);
  return { program, warning: `${older}: ${installHint(serverMajor)} if the restore fails.` };
}

/**
 * How a program is given the database of `url`: `--dbname` with the address less its password,
 * and the password in PGPASSWORD, where `ps` does not show it. The URL's query (sslmode…) goes as
 * it is: it must be one libpq reads.
 */
export function connectionOf(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const address = new URL(url);
  const password = decodeURIComponent(address.password);
  address.password = '';
  return { dbname: `--dbname=${address.toString()}`, env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** What went wrong, from the lines a program printed ("pg_dump: error: …", less the prefix), or its last lines. */
export function errorsIn(lines: readonly string[]): string {
  const errors = lines.filter((line) => /\b(error|fatal|FATAL|ERROR):/.test(line)).map((line) => line.replace(/^pg_\w+: (error|fatal): /, ''));
  return (errors.length ? errors : lines.slice(-2)).join(' ').trim();
}

/**
 * Runs a program, giving each line of its standard output to `stdout` (else leaving it) and
 * collecting its standard error (each line also to `stderr`); resolves with its exit code and
 * what it printed on standard error. Never passes anything through a shell.
 */
export function runProgram(
  program: PostgresProgram,
  args: readonly string[],
  { env, stdout, stderr }: { env?: NodeJS.ProcessEnv; stdout?: (line: string) => void; stderr?: (line: string) => void } = {},
): Promise<{ code: number; errors: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(program.file, args, { env: env ?? process.env, stdio: ['ignore', stdout ? 'pipe' : 'ignore', 'pipe'] });
    const errors: string[] = [];
    createInterface({ input: child.stderr!, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
      errors.push(line);
      stderr?.(line);
    });
    let read = Promise.resolve();
    if (stdout && child.stdout) {
      const lines = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY });
      lines.on('line', stdout);
      read = new Promise((done) => lines.once('close', done));
    }
    child.once('error', reject);
    child.once('close', (code, signal) => void read.then(() => resolve({ code: code ?? (signal ? 128 : 1), errors })));
  });
}
