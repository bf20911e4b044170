import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { StructError, validate } from 'superstruct';
import { ConfigError, toProblems, type Problem } from './errors.ts';
import { isPlainNominee, NOMINEE_COLUMNS, Nominee } from './nominee.struct.ts';
import type { LoadedSurvey } from './loader.ts';

/** The most problems one error lists; a file with more is probably in the wrong format altogether. */
const MAX_PROBLEMS = 20;

/** A row of a nominee file before validation, with the line it starts on. */
interface RawRow {
  line: number;
  values: Record<string, unknown>;
}

/**
 * The rows of a CSV nominee list, each made as the parser reads it: the parser keeps no record of
 * its own, so a million-row list costs its rows and no second copy of them.
 */
function csvRows(text: string, problems: Problem[]): RawRow[] {
  const rows: RawRow[] = [];
  let columns: string[] | undefined;
  /** Reads the header row's columns; false when they are wrong, and then no row is read. */
  const readHeader = (record: string[]) => {
    columns = record.map((name) => name.toLowerCase());
    columns.forEach((name, i) => {
      if (!(NOMINEE_COLUMNS as readonly string[]).includes(name)) {
        problems.push({ path: `line 1, column ${i + 1}`, message: `"${record[i]}" is not a known column; the columns are ${NOMINEE_COLUMNS.join(', ')}` });
      }
    });
    for (const required of ['id', 'name']) {
      if (!columns.includes(required)) problems.push({ path: 'line 1', message: `needs a column named "${required}" (the header row names the columns)` });
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
      on_record: (record: string[], { lines }) => {
        if (!columns) {
          headerRight = readHeader(record);
          return null;
        }
        if (!headerRight) return null;
        if (record.length !== columns.length) {
          problems.push({
            path: `line ${lines}`,
            message: `has ${record.length} values but the header names ${columns.length} columns (quote a value that holds a comma)`,
          });
        }
        const values: Record<string, unknown> = {};
        for (let i = 0; i < columns.length; i++) values[columns[i]] = record[i] === '' ? undefined : record[i];
        rows.push({ line: lines, values });
        return null;
      },
    });
  } catch (error) {
    const { lines, message } = error as { lines?: number; message: string };
    problems.push({ path: `line ${lines ?? '?'}`, message: `is not valid CSV: ${message}` });
    return [];
  }
  return rows;
}

function jsonLinesRows(text: string, problems: Problem[]): RawRow[] {
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
        problems.push({ path: `line ${i + 1}`, message: `is not valid JSON: ${(error as Error).message}` });
        return;
      }
      if (!value || typeof value !== 'object' || Array.isArray(value)) {
        problems.push({ path: `line ${i + 1}`, message: 'expected one JSON object per line, such as {"id": "n1", "name": "Ada Lovelace"}' });
        return;
      }
      const values = { ...(value as Record<string, unknown>) };
      if (typeof values.id === 'number') values.id = String(values.id);
      rows.push({ line: i + 1, values });
    });
  return rows;
}

/**
 * Parses and validates a nominee list, CSV (with a header row) or JSON Lines by the file's
 * extension; throws a ConfigError naming the file, line and column of every bad row.
 */
export function parseNominees(file: string, text: string): Nominee[] {
  const problems: Problem[] = [];
  const jsonLines = /\.(jsonl|ndjson)$/i.test(file);
  const rows = jsonLines ? jsonLinesRows(text, problems) : csvRows(text, problems);
  const nominees: Nominee[] = [];
  const lineOfId = new Map<string, number>();
  for (const { line, values } of rows) {
    // Each row's values are an object of its own, as the struct's copy would be.
    const [error, nominee] = isPlainNominee(values) ? [undefined, values] : validate(values, Nominee, { coerce: true });
    if (error instanceof StructError || !nominee) {
      for (const problem of error ? toProblems(error) : []) {
        const column = problem.path ? (jsonLines ? `, key "${problem.path}"` : `, column "${problem.path}"`) : '';
        problems.push({ path: `line ${line}${column}`, message: problem.message });
      }
      continue;
    }
    const first = lineOfId.get(nominee.id);
    if (first !== undefined) {
      problems.push({
        path: `line ${line}, ${jsonLines ? 'key' : 'column'} "id"`,
        message: `"${nominee.id}" is already the id of the nominee on line ${first}; ids must be unique`,
      });
      continue;
    }
    lineOfId.set(nominee.id, line);
    nominees.push(nominee);
  }
  if (!problems.length && !nominees.length) problems.push({ path: '', message: 'holds no nominees' });
  if (problems.length) {
    const shown = problems.slice(0, MAX_PROBLEMS);
    if (problems.length > MAX_PROBLEMS) shown.push({ path: '…', message: `and ${problems.length - MAX_PROBLEMS} more problems` });
    throw new ConfigError(file, shown);
  }
  return nominees;
}

/** The path of the survey's nominee file, or undefined when it names none. */
export function nomineeFile(survey: LoadedSurvey): string | undefined {
  return survey.config.nominees === undefined ? undefined : path.join(survey.dir, survey.config.nominees);
}

/** Reads and validates the survey's nominee list; an empty list when the survey names none. */
export function loadNominees(survey: LoadedSurvey): Nominee[] {
  const file = nomineeFile(survey);
  if (!file) return [];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(file, [
      { path: '', message: `cannot be read (${(error as NodeJS.ErrnoException).code}); check the \`nominees\` key of survey.yaml` },
    ]);
  }
  return parseNominees(file, text);
}
