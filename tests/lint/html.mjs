// The Nu HTML checker (vnu-jar) over every page of the build: `npm test` runs it after
// `astro build`, and any error fails the run, listed by file, line and message. One Java
// process checks every file, errors only, so the check takes seconds.
//
//   node tests/lint/html.mjs [dist/client]
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import vnuJar from 'vnu-jar';

const root = path.resolve(process.argv[2] ?? 'dist/client');

/** Every HTML file under `dir`, the built pages. */
function htmlFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

let files;
try {
  files = htmlFiles(root);
} catch {
  files = [];
}
if (files.length === 0) {
  console.error(`html: no built page under ${path.relative('.', root) || '.'}: run \`astro build\` first.`);
  process.exit(1);
}

// The checker exits 1 when it finds errors; its JSON report is on stderr either way.
const run = await promisify(execFile)('java', ['-jar', String(vnuJar), '--errors-only', '--format', 'json', ...files], { maxBuffer: 64 * 1024 * 1024 }).catch(
  (error) => error,
);
let report;
try {
  report = JSON.parse(run.stderr);
} catch {
  console.error(`html: the Nu HTML checker did not run (${run.message ?? 'no report'}).`);
  process.exit(1);
}
const errors = report.messages.filter((message) => message.type === 'error' || message.type === 'non-document-error');
for (const error of errors) {
  const file = error.url ? path.relative('.', new URL(error.url).pathname) : '(checker)';
  console.error(
    `${file}:${error.lastLine ?? 0}:${error.firstColumn ?? 0} ${error.message}${error.extract ? `\n    ${error.extract.replaceAll('\n', ' ')}` : ''}`,
  );
}
console.error(
  `html: ${errors.length} error${errors.length === 1 ? '' : 's'} in ${files.length} built pages (Nu HTML checker ${report.version ?? ''})`.trimEnd(),
);
process.exit(errors.length ? 1 : 0);
