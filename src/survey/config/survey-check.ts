import path from 'node:path';
import { is } from 'superstruct';
import { SurveyConfig } from './config.struct.ts';
import type { FileProblem } from '../errors.ts';
import { listSurveySlugs, projectIdProblems, readPrepopulation, readSite, readSurvey, surveysDir, type SurveyReading } from './loader.ts';
import { mailTemplateProblems } from '../mail/mail-templates.ts';
import { readNomineeFile } from '../nominees/nominee-file.ts';

/** What checking the surveys found: every problem of every file, not only the first. */
export interface SurveysCheck {
  /** The slugs of the surveys checked. */
  slugs: string[];
  /** Every problem, survey by survey (each file's in the order of its lines), then site.yaml's. */
  problems: FileProblem[];
  /** The slugs of the surveys with a problem. */
  failing: string[];
  /** How many of the problems are in site.yaml. */
  siteProblems: number;
  /** What does not stop a build: each text a further language leaves untranslated, by file and key path. */
  warnings: FileProblem[];
}

/**
 * The problems of the files a survey names: its nominee list, its prepopulation and its mail
 * templates. A survey.yaml with problems elsewhere still has its files read, by the keys that are
 * themselves valid; a file named by a wrong key is not read (the key's problem says why).
 */
function namedFileProblems({ survey, raw, slug, dir }: SurveyReading): FileProblem[] {
  const { schema } = SurveyConfig;
  const nominees = survey ? survey.config.nominees : is(raw.nominees, schema.nominees) ? raw.nominees : undefined;
  const prepopulation = survey ? survey.config.prepopulation : is(raw.prepopulation, schema.prepopulation) ? raw.prepopulation : undefined;
  return [
    ...(nominees === undefined ? [] : readNomineeFile(path.join(dir, nominees)).problems),
    ...readPrepopulation(survey ?? { slug, dir, config: { prepopulation } }).problems,
    ...mailTemplateProblems(dir),
  ];
}

/** Problems grouped by file, in the order the files first appear, each file's by line and column. */
function inFileOrder(problems: FileProblem[]): FileProblem[] {
  const files = [...new Set(problems.map((problem) => problem.file))];
  return files.flatMap((file) => problems.filter((problem) => problem.file === file).sort((a, b) => a.line - b.line || a.column - b.column));
}

/**
 * Checks the surveys of `dir` (or those of `slugs`) as the build and the survey API read them,
 * collecting every problem instead of stopping at the first: each survey.yaml (its YAML, its
 * struct, the rules across its keys), the files it names (nominee list, prepopulation, mail
 * templates), project_id unique across every survey of the folder, and site.yaml.
 */
export function checkSurveys(dir = surveysDir(), slugs?: readonly string[]): SurveysCheck {
  const all = listSurveySlugs(dir);
  const checked = slugs ? [...new Set(slugs)].sort() : all;
  const readings = new Map([...new Set([...all, ...checked])].map((slug) => [slug, readSurvey(slug, dir)]));
  const mine = checked.map((slug) => readings.get(slug)!);
  const ids = projectIdProblems(mine, [...readings.values()]);
  const failing: string[] = [];
  const problems = mine.flatMap((reading) => {
    const own = inFileOrder([...reading.problems, ...ids.filter((problem) => problem.file === reading.file), ...namedFileProblems(reading)]);
    if (own.length) failing.push(reading.slug);
    return own;
  });
  const site = inFileOrder(readSite(dir).problems);
  return { slugs: checked, problems: [...problems, ...site], failing, siteProblems: site.length, warnings: mine.flatMap((reading) => reading.warnings) };
}

/** The check's last line: `4 surveys checked: no problems`, or `2 problems in 1 of 4 surveys`. */
export function checkSummary({ slugs, problems, failing, siteProblems }: SurveysCheck): string {
  const surveys = `${slugs.length} survey${slugs.length === 1 ? '' : 's'}`;
  if (!problems.length) return `${surveys} checked: no problems`;
  const count = `${problems.length} problem${problems.length === 1 ? '' : 's'}`;
  if (!failing.length) return `${count} in site.yaml; ${slugs.length === 1 ? 'the survey checked has' : `the ${surveys} checked have`} none`;
  return `${count} in ${failing.length} of ${surveys}${siteProblems ? ' and site.yaml' : ''}`;
}
