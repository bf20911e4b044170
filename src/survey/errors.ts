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

/**
 * A problem with its key path as keys (`['layout', 2, 0, 'type']`), so that it can be found in
 * the file it came from; `path` is how it is shown.
 */
export interface KeyedProblem extends Problem {
  keys: ReadonlyArray<string | number>;
  /** The key itself is the mistake (an unknown key, a weak secret), not its value. */
  atKey?: boolean;
}

/** A problem found in a file: the file, its line and column there (from 1), the key path and what was expected. */
export interface FileProblem extends Problem {
  file: string;
  line: number;
  column: number;
}

/** Formats a superstruct path as it reads in YAML terms: `layout[2][0].type`. */
export function formatPath(keys: ReadonlyArray<string | number>): string {
  return keys.reduce<string>((out, key, index) => {
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
  return toKeyedProblems(error).map(({ path, message }) => ({ path, message }));
}

/** Turns a StructError into one problem per failure with its rule's code, for the page's checks. */
export function toCodedProblems(error: StructError): CodedProblem[] {
  return toKeyedProblems(error).map(({ path, message, code }) => ({ path, message, code }));
}

/**
 * Turns a StructError into one problem per failure (every one, not only the first), each with
 * its keys, so that a survey file's problems can be shown at their line and column.
 */
export function toKeyedProblems(error: StructError): Array<KeyedProblem & CodedProblem> {
  const seen = new Set<string>();
  const problems: Array<KeyedProblem & CodedProblem> = [];
  for (const failure of error.failures()) {
    const problem = {
      keys: failure.path,
      path: formatPath(failure.path),
      message: describe(failure),
      code: failure.refinement ?? failure.type,
      atKey: failure.type === 'never',
    };
    const key = `${problem.path}\u0000${problem.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      problems.push(problem);
    }
  }
  return problems;
}

/** Why a file cannot be read, in a problem's words. */
export function unreadable(error: unknown): string {
  const { code } = error as NodeJS.ErrnoException;
  if (code === 'ENOENT') return 'does not exist';
  if (code === 'EISDIR') return 'is a folder, not a file';
  return `cannot be read (${code ?? (error as Error).message})`;
}

/**
 * A file's name as a problem line shows it: from the current folder when it is inside it, else as
 * given. (Plain string work: this module is loaded by the browser too, which has no node:path.)
 */
function shownFile(file: string, cwd: string): string {
  const folder = cwd.replace(/[\\/]+$/, '');
  return file.startsWith(`${folder}/`) || file.startsWith(`${folder}\\`) ? file.slice(folder.length + 1) : file;
}

/**
 * One problem as a line, `file:line:column  key.path  what was expected`, the form editors and
 * terminals turn into a link to the place: the file from the current folder, two spaces between the parts.
 */
export function formatProblem(problem: FileProblem, cwd = process.cwd()): string {
  return `${shownFile(problem.file, cwd)}:${problem.line}:${problem.column}  ${problem.path || '(top level)'}  ${problem.message}`;
}

/** An error naming every problem found, each on a line of its own as formatProblem writes it. */
export class ConfigError extends Error {
  /** The file of the first problem. */
  readonly file: string;
  readonly problems: FileProblem[];

  constructor(problems: FileProblem[]) {
    super(problems.map((problem) => formatProblem(problem)).join('\n'));
    this.name = 'ConfigError';
    this.file = problems[0]?.file ?? '';
    this.problems = problems;
  }
}
