import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { OperatorError } from '../operator.ts';

/** A file written beside its destination, to be put in place with one rename or thrown away. */
export interface StagedFile {
  path: string;
  commit(): void;
  discard(): void;
}

/**
 * Writes `text` next to `file` (readable by the owner only, for personal data), without
 * touching `file` yet: a command stages every file it writes, records its change, and only
 * then renames them into place, so a failure part-way leaves the old files as they were.
 */
export function stageFile(file: string, text: string): StagedFile {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(temporary, text, { mode: 0o600 });
  } catch (error) {
    throw new OperatorError(`Cannot write ${file}: ${(error as Error).message}.`);
  }
  return {
    path: file,
    commit: () => renameSync(temporary, file),
    discard: () => rmSync(temporary, { force: true }),
  };
}
