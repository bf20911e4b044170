import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { WriteInDecisionRow } from '../../server/db/tables/write-in-decisions.table.ts';
import type { LoadedSurvey } from '../../survey/config/loader.ts';
import type { Nominee } from '../../survey/nominees/nominee.struct.ts';
import { nomineeFile, parseNominees } from '../../survey/nominees/nominee-file.ts';
import { OperatorError } from '../operator.ts';

/** The nominees that write-in decisions added and the nominee file does not hold yet, in the order decided. */
export function nomineesToAppend(decisions: Iterable<WriteInDecisionRow>, nominees: readonly Nominee[]): Nominee[] {
  const listed = new Set(nominees.map((nominee) => nominee.id));
  const added = new Map<string, Nominee>();
  for (const decision of decisions) {
    if (decision.action !== 'new' || !decision.nominee_id || listed.has(decision.nominee_id) || added.has(decision.nominee_id)) continue;
    added.set(decision.nominee_id, {
      id: decision.nominee_id,
      name: decision.nominee_name ?? decision.nominee_id,
      specialty: decision.nominee_specialty ?? undefined,
      practice: decision.nominee_practice ?? undefined,
      city: decision.nominee_city ?? undefined,
    });
  }
  return [...added.values()];
}

/**
 * Appends nominees to the survey's nominee file, CSV (in the file's own columns) or JSON
 * Lines. The whole new file is validated before it replaces the old one in one rename, so a
 * failure leaves the file as it was.
 */
export function appendNominees(survey: LoadedSurvey, additions: readonly Nominee[]): string {
  const file = nomineeFile(survey);
  if (!file) throw new OperatorError(`The survey ${survey.slug} names no nominee file (the nominees key of survey.yaml).`);
  const text = readFileSync(file, 'utf8');
  const lead = text === '' || text.endsWith('\n') ? '' : '\n';
  let lines: string[];
  if (/\.(jsonl|ndjson)$/i.test(file)) {
    lines = additions.map((nominee) => JSON.stringify(Object.fromEntries(Object.entries(nominee).filter(([, value]) => value !== undefined))));
  } else {
    const [header] = parse(text, { bom: true, to_line: 1 }) as string[][];
    const columns = (header ?? []).map((column) => column.trim().toLowerCase() as keyof Nominee);
    const cell = (value = '') => (/[",\n\r]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
    lines = additions.map((nominee) => columns.map((column) => cell(nominee[column])).join(','));
  }
  const next = `${text}${lead}${lines.join('\n')}\n`;
  parseNominees(file, next);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, next);
  renameSync(temporary, file);
  return file;
}
