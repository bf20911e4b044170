import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseDocument } from 'yaml';

/** The repository's surveys folder. */
const SURVEYS = path.resolve('surveys');

/** Copies the sample surveys to a fresh folder, so a test may break one without touching the repository. */
export function copySurveys(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'peervote-surveys-'));
  cpSync(SURVEYS, dir, { recursive: true });
  return dir;
}

/** Edits one key path of a survey file in place, as a person editing the YAML would. */
export function editSurvey(dir: string, slug: string, keyPath: Array<string | number>, value: unknown): string {
  const file = path.join(dir, slug, 'survey.yaml');
  const doc = parseDocument(readFileSync(file, 'utf8'));
  if (value === undefined) doc.deleteIn(keyPath);
  else doc.setIn(keyPath, value);
  writeFileSync(file, doc.toString());
  return file;
}
