import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { StructError, validate } from 'superstruct';
import { ConfigError, toKeyedProblems, unreadable, type FileProblem } from '../errors.ts';
import { isPlainNominee, NOMINEE_COLUMNS, Nominee } from './nominee.struct.ts';
import type { LoadedSurvey } from '../config/loader.ts';

/** The most problems one file's check lists; a file with more is probably in the wrong format altogether. */
const MAX_PROBLEMS = 20;

/** A problem in a nominee file before its file is named: its line, column and column (or key) name. */
type RowProblem = Omit<FileProblem, 'file'>;

/** A row of a nominee file before validation, with the line it starts on. */
interface RawRow {
  line: number;
  values: Record<string, unknown>;
}

/** The lines of a file's text as an editor counts them (a byte order mark is no column), split once, when a problem needs them. */
function linesOf(text: string): () => string[] {
  let lines: string[] | undefined;
  return () => (lines ??= text.replace(/^\uFEFF/, '').split('\n'));
}

/**
 * Where the value of column `index` of a CSV record starting on `line` begins (its first character
 * after any spaces), reading quotes as CSV does; the end of the record when it has fewer values.
 */
function csvFieldAt(lines: string[], line: number, index: number): { line: number; column: number } {
  let text = lines[line - 1] ?? '';
  let [column, field, quoted] = [0, 0, false];
  for (;;) {
    if (field === index) {
      while (text[column] === ' ' || text[column] === '\t') column++;
      return { line, column: column + 1 };
    }
    if (column >= text.replace(/\r$/, '').length) {
      if (!quoted || line >= lines.length) return { line, column: column + 1 };
      [line, text, column] = [line + 1, lines[line] ?? '', 0];
      continue;
    }
    if (text[column] === '"') quoted = !quoted;
    else if (text[column] === ',' && !quoted) field++;
    column++;
  }
}

/**
 * The rows of a CSV nominee list, each made as the parser reads it: the parser keeps no record of
 * its own, so a million-row list costs its rows and no second copy of them.
 */
function csvRows(
  text: string,
  problems: RowProblem[],
  lines: () => string[],
): { rows: RawRow[]; at: (line: number, column: string, path?: string) => RowProblem } {
  const rows: RawRow[] = [];
  let columns: string[] | undefined;
  const at = (line: number, name: string, path = name) => ({
    ...csvFieldAt(lines(), line, columns ? Math.max(columns.indexOf(name), 0) : 0),
    path,
    message: '',
  });
  /** Reads the header row's columns; false when they are wrong, and then no row is read. */
  const readHeader = (record: string[]) => {
    columns = record.map((name) => name.toLowerCase());
    columns.forEach((name, i) => {
      if (!(NOMINEE_COLUMNS as readonly string[]).includes(name)) {
        problems.push({
          ...csvFieldAt(lines(), 1, i),
          path: '(header)',
          message: `"${record[i]}" is not a known column; the columns are ${NOMINEE_COLUMNS.join(', ')}`,
        });
      }
    });
    for (const required of ['id', 'name']) {
      if (!columns.includes(required))
        problems.push({ line: 1, column: 1, path: '(header)', message: `needs a column named "${required}" (the header row names the columns)` });
    }
    return !problems.length;
  };
  let headerRight = false;
  try {
    parse(text, {
      bom: true,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
      on_record: (record: string[], { lines: end }) => {
        if (!columns) {
          headerRight = readHeader(record);
          return null;
        }
        if (!headerRight) return null;
        // The parser counts the line a record ends on; a quoted value may hold line breaks before it.
        const line = end - record.reduce((breaks, value) => breaks + (value.match(/\n/g)?.length ?? 0), 0);
        if (record.length !== columns.length) {
          problems.push({
            ...csvFieldAt(lines(), line, Math.min(record.length, columns.length)),
            path: '(row)',
            message: `has ${record.length} values but the header names ${columns.length} columns (quote a value that holds a comma)`,
          });
        }
        const values: Record<string, unknown> = {};
        for (let i = 0; i < columns.length; i++) values[columns[i]] = record[i] === '' ? undefined : record[i];
        rows.push({ line, values });
        return null;
      },
    });
  } catch (error) {
    const { lines: line, message } = error as { lines?: number; message: string };
    problems.push({ line: line ?? 1, column: 1, path: '(syntax)', message: `is not valid CSV: ${message}` });
    return { rows: [], at };
  }
  return { rows, at };
}

function jsonLinesRows(
  text: string,
  problems: RowProblem[],
  lines: () => string[],
): { rows: RawRow[]; at: (line: number, key: string, path?: string) => RowProblem } {
  const rows: RawRow[] = [];
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((source, i) => {
      if (!source.trim()) return;
      let value: unknown;
      try {
        value = JSON.parse(source);
      } catch (error) {
        const { message } = error as Error;
        const column = Number(/column (\d+)/.exec(message)?.[1] ?? Number(/position (\d+)/.exec(message)?.[1] ?? 0) + 1);
        problems.push({ line: i + 1, column, path: '(syntax)', message: `is not valid JSON: ${message.replace(/ in JSON at position \d+.*$/, '')}` });
        return;
      }
      if (!value || typeof value !== 'object' || Array.isArray(value)) {
        problems.push({ line: i + 1, column: 1, path: '(row)', message: 'expected one JSON object per line, such as {"id": "n1", "name": "Ada Lovelace"}' });
        return;
      }
      const values = { ...(value as Record<string, unknown>) };
      if (typeof values.id === 'number') values.id = String(values.id);
      rows.push({ line: i + 1, values });
    });
  /** Where a key's name is on its line: `"name":`; the line's start when it is not there (a missing key). */
  const at = (line: number, key: string, path = key) => {
    const text = lines()[line - 1] ?? '';
    const quoted = JSON.stringify(key);
    let found = text.indexOf(quoted);
    while (found >= 0 && !/^\s*:/.test(text.slice(found + quoted.length))) found = text.indexOf(quoted, found + 1);
    return { line, column: found + 1 || 1, path, message: '' };
  };
  return { rows, at };
}

/** A nominee file's problems, each named with the file; past MAX_PROBLEMS, one more line says how many were left out. */
function fileProblems(file: string, problems: RowProblem[]): FileProblem[] {
  const shown = problems.slice(0, MAX_PROBLEMS).map((problem) => ({ file, ...problem }));
  if (problems.length > MAX_PROBLEMS) {
    const next = problems[MAX_PROBLEMS];
    shown.push({ file, line: next.line, column: next.column, path: '…', message: `and ${problems.length - MAX_PROBLEMS} more problems in this file` });
  }
  return shown;
}

/**
 * Parses and validates a nominee list, CSV (with a header row) or JSON Lines by the file's
 * extension: its nominees, and every problem (up to MAX_PROBLEMS), with its line and column.
 */
function readNominees(file: string, text: string): { nominees: Nominee[]; problems: FileProblem[] } {
  const problems: RowProblem[] = [];
  const jsonLines = /\.(jsonl|ndjson)$/i.test(file);
  const lines = linesOf(text);
  const { rows, at } = jsonLines ? jsonLinesRows(text, problems, lines) : csvRows(text, problems, lines);
  const nominees: Nominee[] = [];
  const lineOfId = new Map<string, number>();
  for (const { line, values } of rows) {
    // Each row's values are an object of its own, as the struct's copy would be.
    const [error, nominee] = isPlainNominee(values) ? [undefined, values] : validate(values, Nominee, { coerce: true });
    if (error instanceof StructError || !nominee) {
      for (const problem of error ? toKeyedProblems(error) : []) {
        problems.push({
          ...(problem.keys.length ? at(line, String(problem.keys[0]), problem.path) : { line, column: 1, path: '(row)' }),
          message: problem.message,
        });
      }
      continue;
    }
    const first = lineOfId.get(nominee.id);
    if (first !== undefined) {
      problems.push({ ...at(line, 'id'), message: `"${nominee.id}" is already the id of the nominee on line ${first}; ids must be unique` });
      continue;
    }
    lineOfId.set(nominee.id, line);
    nominees.push(nominee);
  }
  if (!problems.length && !nominees.length) problems.push({ line: 1, column: 1, path: '(file)', message: 'holds no nominees' });
  return { nominees, problems: fileProblems(file, problems) };
}

/**
 * Parses and validates a nominee list, CSV (with a header row) or JSON Lines by the file's
 * extension; throws a ConfigError naming the file, line and column of every bad row.
 */
export function parseNominees(file: string, text: string): Nominee[] {
  const { nominees, problems } = readNominees(file, text);
  if (problems.length) throw new ConfigError(problems);
  return nominees;
}

/** Reads and validates a nominee file: its nominees, and every problem found in it, each at its line and column. */
export function readNomineeFile(file: string): { nominees: Nominee[]; problems: FileProblem[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return {
      nominees: [],
      problems: [{ file, line: 1, column: 1, path: '(file)', message: `${unreadable(error)}; check the \`nominees\` key of survey.yaml` }],
    };
  }
  return readNominees(file, text);
}

/** The path of the survey's nominee file, or undefined when it names none. */
export function nomineeFile(survey: LoadedSurvey): string | undefined {
  return survey.config.nominees === undefined ? undefined : path.join(survey.dir, survey.config.nominees);
}

/** Reads and validates the survey's nominee list; an empty list when the survey names none. Throws a ConfigError naming every problem. */
export function loadNominees(survey: LoadedSurvey): Nominee[] {
  const file = nomineeFile(survey);
  if (!file) return [];
  const { nominees, problems } = readNomineeFile(file);
  if (problems.length) throw new ConfigError(problems);
  return nominees;
}
