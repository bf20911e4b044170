import { existsSync, globSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import {
  EDITOR_SCHEMAS,
  REFERENCE_END,
  REFERENCE_START,
  makeSchema,
  referenceBlock,
  schemaLine,
  schemaText,
  withReference,
} from '../survey/config/editor-schemas.ts';

/** The guide that holds the reference of the keys, from the repository's root. */
const REFERENCE_DOC = 'docs/surveys.md';

/**
 * The YAML files under `root` that an editor schema describes (`surveys/<slug>/survey.yaml`,
 * `surveys/site.yaml`) whose first line does not name it, each with the line it needs.
 */
export function filesWithoutSchemaLine(root: string): Array<{ file: string; line: string }> {
  return EDITOR_SCHEMAS.flatMap((entry) =>
    globSync(entry.yaml.replace('<slug>', '*'), { cwd: root })
      .sort()
      .filter((file) => readFileSync(path.join(root, file), 'utf8').split(/\r?\n/, 1)[0] !== schemaLine(entry))
      .map((file) => ({ file, line: schemaLine(entry) })),
  );
}

/**
 * Writes each editor schema (`survey.schema.json`, `site.schema.json`) at the repository's
 * `root`, and the reference of the keys between its marker lines in docs/surveys.md, each only
 * when its text changed, so that an unchanged repository stays clean. Returns the files written,
 * and what stands in the way: a key without a meaning, a guide without the marker lines, a file
 * that cannot be written, a survey file whose first line does not name its schema. With `write`
 * false it writes nothing and names each file that differs instead.
 */
export function writeEditorSchemas(root: string, { write = true } = {}): { written: string[]; problems: string[] } {
  const written: string[] = [];
  const problems = EDITOR_SCHEMAS.flatMap((entry) =>
    makeSchema(entry).problems.map((problem) => `${entry.file}: ${problem} (src/survey/config/config.docs.ts)`),
  );
  const update = (file: string, text: string) => {
    const target = path.join(root, file);
    if (existsSync(target) && readFileSync(target, 'utf8') === text) return;
    if (!write) {
      problems.push(`${file}: differs from what the structs make: run npm run schemas, and commit it`);
      return;
    }
    try {
      writeFileSync(target, text);
      written.push(file);
    } catch (error) {
      problems.push(`${file}: cannot be written (${(error as NodeJS.ErrnoException).code})`);
    }
  };
  for (const entry of EDITOR_SCHEMAS) update(entry.file, schemaText(entry));
  const guide = path.join(root, REFERENCE_DOC);
  const text = existsSync(guide) ? withReference(readFileSync(guide, 'utf8'), referenceBlock()) : undefined;
  if (text === undefined)
    problems.push(`${REFERENCE_DOC}: the reference of the keys goes between the lines ${REFERENCE_START} and ${REFERENCE_END}, which it lacks`);
  else update(REFERENCE_DOC, text);
  for (const { file, line } of filesWithoutSchemaLine(root)) problems.push(`${file}: needs this first line, which names its schema to editors: ${line}`);
  return { written, problems };
}

/**
 * Brings the editors' JSON Schemas and the keys' reference up to date with the structs when a
 * build starts (`npm run schemas` does the same without a build). Only a build writes, and not on
 * CI (the `CI` variable set), where it warns of a stale file instead: the dev server and the unit
 * tests, which load this configuration too, and a CI run, whose build comes before its unit
 * tests, leave the repository as committed, so a stale schema fails its test.
 */
export default function editorSchemas(): AstroIntegration {
  return {
    name: 'peervote:editor-schemas',
    hooks: {
      'astro:config:setup': ({ command, config, logger }) => {
        if (command !== 'build') return;
        const { written, problems } = writeEditorSchemas(fileURLToPath(config.root), { write: !process.env.CI });
        for (const problem of problems) logger.warn(problem);
        if (written.length) logger.info(`brought up to date with the structs: ${written.join(', ')}`);
      },
    },
  };
}
