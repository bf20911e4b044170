// Checks the surveys without building them, and prints every problem at once, one a line:
//
//   npm run check:surveys                          # every survey under SURVEYS_DIR (./surveys)
//   npm run check:surveys -- surveys/<slug> […]    # these surveys (a folder or a slug each)
//
// Each line is `file:line:column  key.path  what was expected, what was found`; the last says how
// many problems in how many surveys. The exit code is 0 without problems, 1 with any, and 2 when
// the check cannot run (an argument that names no survey folder).
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { surveysDir } from '../src/survey/config/loader.ts';
import { formatProblem, quoted } from '../src/survey/errors.ts';
import { checkSummary, checkSurveys } from '../src/survey/config/survey-check.ts';

const USAGE = 'Usage: npm run check:surveys [-- surveys/<slug> …]';

function refuse(message: string): never {
  console.error(message);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options: { help: { type: 'boolean', short: 'h' } } });
} catch (error) {
  refuse(`${(error as Error).message}\n${USAGE}`);
}
const { values, positionals } = parsed;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const dir = surveysDir();
if (!existsSync(dir) || !statSync(dir).isDirectory()) refuse(`There is no surveys folder at ${dir} (SURVEYS_DIR).`);

/** The slug an argument names: a survey folder inside the surveys folder, by its path or its name. */
function slugOf(arg: string): string {
  const full = path.resolve(arg);
  if (path.dirname(full) === dir && existsSync(full)) return path.basename(full);
  if (!/[\\/]/.test(arg) && existsSync(path.join(dir, arg))) return arg;
  refuse(`${quoted(arg)} is not a survey folder in ${path.relative(process.cwd(), dir) || '.'}: name one as surveys/<slug> or <slug>.`);
}

const check = checkSurveys(dir, positionals.length ? positionals.map(slugOf) : undefined);
for (const problem of check.problems) console.log(formatProblem(problem));
for (const warning of check.warnings) console.log(`${formatProblem(warning)} (warning)`);
console.log(checkSummary(check));
process.exitCode = check.problems.length ? 1 : 0;
