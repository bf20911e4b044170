// Writes a survey's nominee list of made-up nominees, seeded so that it is the same on every run.
//
//   npm run nominees:generate -- <slug> [--count 3000] [--seed N] [--anchors]
//
// The file is the one the survey's `nominees` key names (CSV or JSON Lines by its extension);
// specialties are the survey's sub-categories.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateNominees, seedOf } from './lib/nominee-generator.ts';
import { loadSurvey } from '../src/survey/config/loader.ts';
import { categoryGroups } from '../src/survey/config/layout.ts';
import { DETAIL_COLUMNS, type Nominee } from '../src/survey/nominees/nominee.struct.ts';
import { csvLine } from '../src/results/export/csv.ts';

/** The columns a generated list has (made-up nominees have no license). */
const COLUMNS = ['id', 'name', ...DETAIL_COLUMNS] as const;

/** The list as CSV with a header row, or as JSON Lines. */
export function formatNominees(nominees: Nominee[], jsonLines: boolean): string {
  if (jsonLines) return `${nominees.map((nominee) => JSON.stringify(nominee)).join('\n')}\n`;
  return [COLUMNS, ...nominees.map((nominee) => COLUMNS.map((column) => nominee[column]))].map(csvLine).join('');
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { count: { type: 'string', default: '40' }, seed: { type: 'string' }, anchors: { type: 'boolean', default: false } },
});
const [slug] = positionals;
if (!slug) {
  console.error('Usage: npm run nominees:generate -- <survey slug> [--count N] [--seed N] [--anchors]');
  process.exit(2);
}
const survey = loadSurvey(slug);
if (!survey.config.nominees) {
  console.error(`${slug}: survey.yaml names no nominee file; add e.g. \`nominees: nominees.csv\` first.`);
  process.exit(1);
}
const file = path.join(survey.dir, survey.config.nominees);
const nominees = generateNominees({
  count: Number(values.count),
  seed: values.seed === undefined ? seedOf(slug) : Number(values.seed),
  specialties: categoryGroups(survey.config).flatMap((group) => group.subcategories),
  anchors: values.anchors,
  idPrefix: `${slug
    .split('-')
    .map((part) => part[0])
    .join('')}-`,
});
writeFileSync(file, formatNominees(nominees, /\.(jsonl|ndjson)$/i.test(file)));
console.log(`Wrote ${nominees.length} nominees to ${path.relative(process.cwd(), file)}`);
