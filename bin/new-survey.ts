// Makes a new survey folder that passes the check as written, then says what to do next:
//
//   npm run new-survey -- <slug> [--title "…"] [--project-id ID]
//   npm run new-survey -- <slug> --from <existing-slug> [--title "…"] [--project-id ID]
//
// A new survey is a small peer vote (survey.yaml commented key by key, a few made-up nominees, an
// invitation); --from copies another survey's settings, nominee list and mail templates, without
// its people or results. It refuses, in one line and writing nothing, a slug that is taken or
// cannot be an address, a project_id another survey has, or a folder it cannot write.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { surveysDir } from '../src/survey/config/loader.ts';
import { formatProblem } from '../src/survey/errors.ts';
import { checkSummary, checkSurveys } from '../src/survey/config/survey-check.ts';
import { newSurvey, Refusal } from './lib/new-survey.ts';

const USAGE = 'Usage: npm run new-survey -- <slug> [--from <existing-slug>] [--project-id ID] [--title "…"]';

function refuse(message: string): never {
  console.error(message);
  process.exit(1);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: { from: { type: 'string' }, 'project-id': { type: 'string' }, title: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
} catch (error) {
  refuse(`${(error as Error).message}\n${USAGE}`);
}
const { values, positionals } = parsed;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (positionals.length !== 1) refuse(USAGE);

const [slug] = positionals;
const dir = surveysDir();
let made;
try {
  made = newSurvey({ dir, slug, from: values.from, projectId: values['project-id'], title: values.title, root: path.resolve(import.meta.dirname, '..') });
} catch (error) {
  if (error instanceof Refusal) refuse(error.message);
  throw error;
}

const shown = path.relative(process.cwd(), made.folder) || '.';
console.log(`Wrote ${shown}/: ${made.files.join(', ')}${values.from ? ` (the settings of ${values.from})` : ''}`);
for (const note of made.notes) console.log(note);
const check = checkSurveys(dir, [slug]);
for (const problem of check.problems) console.log(formatProblem(problem));
console.log(checkSummary(check));
console.log(`Next:
  1. Edit ${shown}/survey.yaml (title, fields, categories) and its nominee list
  2. npm run check:surveys -- ${shown}
  3. npm start
  4. Open http://127.0.0.1:4321/${slug}/`);
process.exitCode = check.problems.length ? 1 : 0;
