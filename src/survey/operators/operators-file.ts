import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { create, StructError } from 'superstruct';
import { EVERY_SURVEY, OperatorsFile, operatorKey, type Operator, type OperatorsFileContent } from './operators.struct.ts';
import { ConfigError, toKeyedProblems, unreadable, type KeyedProblem } from '../errors.ts';
import { readYamlFile } from '../config/yaml-file.ts';
import { privateDir, surveysDir } from '../config/loader.ts';

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

/**
 * Reads and checks the operators file: every operator's address, name and roles, each role one
 * of auditor, reviewer, manager and owner on a survey of `slugs` or on "*". A malformed file, a
 * role no one knows, a slug that names no survey, an address twice (in any case) or a malformed
 * address is a ConfigError naming every problem at its file, line and column, with its key, as
 * `npm run check:surveys` names a survey's. A file that is not there names no operator.
 */
export function readOperators(file: string, slugs: readonly string[]): Operator[] {
  if (!existsSync(file)) return [];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError([{ file, line: 1, column: 1, path: '(file)', message: unreadable(error) }]);
  }
  const yaml = readYamlFile(file, text);
  if (yaml.problems.length) throw new ConfigError(yaml.problems);
  const content = yaml.value;
  if (!content || typeof content !== 'object' || Array.isArray(content))
    throw new ConfigError(yaml.place([{ keys: [], path: '(top level)', message: 'expected a mapping with the key operators, a list of operators' }]));
  let parsed: OperatorsFileContent;
  try {
    parsed = create(content, OperatorsFile);
  } catch (error) {
    if (error instanceof StructError) throw new ConfigError(yaml.place(toKeyedProblems(error)));
    throw error;
  }
  const entries = parsed.operators ?? [];
  const problems: KeyedProblem[] = [];
  const known = new Set(slugs);
  const seen = new Map<string, number>();
  entries.forEach((entry, index) => {
    const key = operatorKey(entry.email);
    const first = seen.get(key);
    if (first !== undefined) {
      const [earlier] = yaml.place([{ keys: ['operators', first, 'email'], path: '', message: '' }]);
      problems.push({
        keys: ['operators', index, 'email'],
        path: `operators[${index}].email`,
        message: `"${entry.email}" is already the address of operators[${first}] (line ${earlier.line}); addresses are compared in any case`,
      });
    } else seen.set(key, index);
    for (const slug of Object.keys(entry.roles)) {
      if (slug === EVERY_SURVEY || known.has(slug)) continue;
      problems.push({
        keys: ['operators', index, 'roles', slug],
        atKey: true,
        path: `operators[${index}].roles.${slug}`,
        message: `names no survey; the surveys are ${[...slugs].join(', ') || 'none yet'}, and "*" is every survey`,
      });
    }
  });
  if (problems.length) throw new ConfigError(yaml.place(problems));
  return entries.map((entry) => ({ key: operatorKey(entry.email), email: entry.email, name: entry.name || entry.email, roles: entry.roles }));
}
