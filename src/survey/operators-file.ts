import { existsSync } from 'node:fs';
import path from 'node:path';
import { create, StructError } from 'superstruct';
import { isMap, isScalar, type Document, type LineCounter } from 'yaml';
import { EVERY_SURVEY, OperatorsFile, operatorKey, type Operator, type OperatorsFileContent } from './operators.struct.ts';
import { ConfigError, toLocatedProblems, type Problem } from './errors.ts';
import { privateDir, readYamlDocument, surveysDir } from './loader.ts';

/** The operators file's name, in the surveys folder or in PEERVOTE_PRIVATE_DIR. */
export const OPERATORS_FILE_NAME = 'operators.yaml';

/** Where the operators file is read from: `PEERVOTE_PRIVATE_DIR/operators.yaml` when that folder holds one, else `SURVEYS_DIR/operators.yaml`. */
export function operatorsFile(): string {
  const outside = privateDir();
  const privateFile = outside && path.join(outside, OPERATORS_FILE_NAME);
  return privateFile && existsSync(privateFile) ? privateFile : path.join(surveysDir(), OPERATORS_FILE_NAME);
}

/** Every file the operators may be read from, for a caller that follows them as they change. */
export function operatorsFileCandidates(): string[] {
  const outside = privateDir();
  return [...(outside ? [path.join(outside, OPERATORS_FILE_NAME)] : []), path.join(surveysDir(), OPERATORS_FILE_NAME)];
}

/** Where a node of the file is, in words: `line 4`; the nearest node above it when the path ends in a key that is missing. */
function lineOf(document: Document, lineCounter: LineCounter, at: ReadonlyArray<string | number>): string {
  for (let depth = at.length; depth >= 0; depth--) {
    const node = depth === 0 ? document.contents : document.getIn(at.slice(0, depth), true);
    const offset = (node as { range?: [number, number, number] } | undefined)?.range?.[0];
    if (offset !== undefined) return `line ${lineCounter.linePos(offset).line}`;
  }
  return 'line 1';
}

/** Where a key of a mapping is (the key itself, not its value): `line 7`. */
function keyLine(document: Document, lineCounter: LineCounter, mapAt: ReadonlyArray<string | number>, key: string): string {
  const map = document.getIn(mapAt, true);
  const pair = isMap(map) ? map.items.find((item) => isScalar(item.key) && String(item.key.value) === key) : undefined;
  const offset = pair && isScalar(pair.key) ? pair.key.range?.[0] : undefined;
  return offset === undefined ? lineOf(document, lineCounter, mapAt) : `line ${lineCounter.linePos(offset).line}`;
}

/**
 * Reads and checks the operators file: every operator's address, name and roles, each role one
 * of auditor, reviewer, manager and owner on a survey of `slugs` or on "*". A malformed file, a
 * role no one knows, a slug that names no survey, an address twice (in any case) or a malformed
 * address is a ConfigError naming the file, and the line and key of every problem. A file that
 * is not there names no operator.
 */
export function readOperators(file: string, slugs: readonly string[]): Operator[] {
  if (!existsSync(file)) return [];
  const { document, lineCounter } = readYamlDocument(file);
  const content = document.toJS() ?? {};
  if (typeof content !== 'object' || Array.isArray(content))
    throw new ConfigError(file, [{ path: '(top level) (line 1)', message: 'expected a mapping with the key operators, a list of operators' }]);
  let parsed: OperatorsFileContent;
  try {
    parsed = create(content, OperatorsFile);
  } catch (error) {
    if (error instanceof StructError)
      throw new ConfigError(
        file,
        toLocatedProblems(error, (at) => lineOf(document, lineCounter, at)),
      );
    throw error;
  }
  const entries = parsed.operators ?? [];
  const problems: Problem[] = [];
  const known = new Set(slugs);
  const seen = new Map<string, number>();
  entries.forEach((entry, index) => {
    const key = operatorKey(entry.email);
    const first = seen.get(key);
    if (first !== undefined) {
      problems.push({
        path: `operators[${index}].email (${lineOf(document, lineCounter, ['operators', index, 'email'])})`,
        message: `"${entry.email}" is already the address of operators[${first}] (${lineOf(document, lineCounter, ['operators', first, 'email'])}); addresses are compared in any case`,
      });
    } else seen.set(key, index);
    for (const slug of Object.keys(entry.roles)) {
      if (slug === EVERY_SURVEY || known.has(slug)) continue;
      problems.push({
        path: `operators[${index}].roles.${slug} (${keyLine(document, lineCounter, ['operators', index, 'roles'], slug)})`,
        message: `names no survey; the surveys are ${[...slugs].join(', ') || 'none yet'}, and "*" is every survey`,
      });
    }
  });
  if (problems.length) throw new ConfigError(file, problems);
  return entries.map((entry) => ({ key: operatorKey(entry.email), email: entry.email, name: entry.name || entry.email, roles: entry.roles }));
}
