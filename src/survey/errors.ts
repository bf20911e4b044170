import type { StructError, Failure } from 'superstruct';

/** One problem found in a value: where it is, and what was expected there. */
export interface Problem {
  path: string;
  message: string;
}

/**
 * A problem as the page handles it: with the code of the rule that found it (the refinement's
 * name, such as `required` or `vote-requirement`, else the type expected), so that code tells
 * problems apart without comparing their words. The API's bodies carry `{ path, message }` only.
 */
export interface CodedProblem extends Problem {
  code: string;
}

/** Formats a superstruct path as it reads in YAML terms: `layout[2][0].type`. */
function formatPath(path: ReadonlyArray<string | number>): string {
  return path.reduce<string>((out, key, index) => {
    // A top-level key is written as is: a ballot's keys are form-data names such as `nominations[A][B][1]`.
    if (index === 0 && typeof key === 'string') return key;
    if (typeof key === 'number' || /^\d+$/.test(String(key))) return `${out}[${key}]`;
    return /^[A-Za-z_][\w-]*$/.test(String(key)) ? (out ? `${out}.${key}` : String(key)) : `${out}[${JSON.stringify(key)}]`;
  }, '');
}

function describe(failure: Failure): string {
  const { type, value, refinement } = failure;
  if (refinement) return inOurWords(failure);
  if (value === undefined && type !== 'never') return `is required (${expected(failure)})`;
  if (type === 'never') return 'is not a known key: check its spelling, or remove it';
  return `${expected(failure)}, got ${show(value)}`;
}

/** What each struct type is called in a problem's words. */
const TYPE_NAMES: Record<string, string> = {
  string: 'a text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping of keys to values',
  record: 'a mapping of keys to values',
  type: 'a mapping of keys to values',
  file: 'a file',
  texts: 'one text or a list of texts',
};

function expected({ type, message }: Failure): string {
  if (type === 'enums') {
    const list = /one of `(.*)`/.exec(message)?.[1];
    return list ? `expected one of ${list.replaceAll(',', ', ')}` : 'expected one of the allowed values';
  }
  return `expected ${TYPE_NAMES[type] ?? type}`;
}

/**
 * A refinement's message, ours as written; superstruct's own (min, max, size, pattern) begin
 * "Expected a {type}" ("Expected a integer greater than…"), which names the type as we do
 * everywhere else: "expected a whole number greater than…".
 */
function inOurWords({ type, message }: Failure): string {
  const own = `Expected a ${type} `;
  return message.startsWith(own) ? `expected ${TYPE_NAMES[type] ?? type} ${message.slice(own.length)}` : message;
}

/** A text someone gave, as a message shows it: in quotes, its control characters escaped, cut after 60 characters. */
export function quoted(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}

function show(value: unknown): string {
  if (typeof value === 'string') return quoted(value);
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'nothing (null)';
  if (typeof value === 'object' && 'size' in value && 'type' in value) return 'a file';
  if (typeof value === 'object') return 'a mapping';
  return String(value);
}

/** Turns a StructError into one `{ path, message }` per failure, for build errors, field errors and API 400 bodies. */
export function toProblems(error: StructError): Problem[] {
  return toCodedProblems(error).map(({ path, message }) => ({ path, message }));
}

/**
 * Turns a StructError into one problem per failure, each path followed by where the value is in
 * its file (`locate` gives `line 4` for a failure's path), for a file read with its nodes.
 */
export function toLocatedProblems(error: StructError, locate: (path: ReadonlyArray<string | number>) => string): Problem[] {
  return toCodedProblems(error, locate).map(({ path, message }) => ({ path, message }));
}

/** Turns a StructError into one problem per failure with its rule's code, for the page's checks. */
export function toCodedProblems(error: StructError, locate?: (path: ReadonlyArray<string | number>) => string): CodedProblem[] {
  const seen = new Set<string>();
  const problems: CodedProblem[] = [];
  for (const failure of error.failures()) {
    const path = formatPath(failure.path);
    const where = locate?.(failure.path);
    const problem = { path: where ? `${path || '(top level)'} (${where})` : path, message: describe(failure), code: failure.refinement ?? failure.type };
    const key = `${problem.path}\u0000${problem.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      problems.push(problem);
    }
  }
  return problems;
}

/** An error naming the file and every problem in it, each on a line of its own. */
export class ConfigError extends Error {
  readonly file: string;
  readonly problems: Problem[];

  constructor(file: string, problems: Problem[]) {
    super(
      `${file}: ${problems.length === 1 ? 'a problem' : `${problems.length} problems`}\n${problems.map((p) => `  - ${p.path || '(top level)'}: ${p.message}`).join('\n')}`,
    );
    this.name = 'ConfigError';
    this.file = file;
    this.problems = problems;
  }
}
