// Writes the editors' JSON Schemas (survey.schema.json, site.schema.json) at the repository's
// root and the reference of the keys in docs/surveys.md, from the structs and
// src/survey/config/config.docs.ts, where they changed; the build does the same when it starts.
//
//   npm run schemas
import path from 'node:path';
import { writeEditorSchemas } from '../src/integrations/editor-schemas.ts';

const { written, problems } = writeEditorSchemas(path.resolve(import.meta.dirname, '..'));
console.log(written.length ? written.map((file) => `wrote ${file}`).join('\n') : 'The schemas and the reference are up to date.');
for (const problem of problems) console.error(problem);
if (problems.length) process.exitCode = 1;
