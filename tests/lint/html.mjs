// The Nu HTML checker (vnu-jar) over every page of the build: `npm test` runs it after
// `astro build`, and any error fails the run, listed by file, line and message. One Java
// process checks every file, errors only, so the check takes seconds.
//
//   node tests/lint/html.mjs [dist/client]
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { nuHtmlErrors } from '../support/nu-html.ts';

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

let checked;
try {
  checked = await nuHtmlErrors(files);
} catch (error) {
  console.error(`html: ${error.message}`);
  process.exit(1);
}
for (const error of checked.errors) console.error(error);
console.error(
  `html: ${checked.errors.length} error${checked.errors.length === 1 ? '' : 's'} in ${files.length} built pages (Nu HTML checker ${checked.version})`.trimEnd(),
);
process.exit(checked.errors.length ? 1 : 0);
