import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { create, is, StructError, type Struct } from 'superstruct';
import { type Document, isMap, isScalar, LineCounter, parseDocument, visit, YAMLParseError } from 'yaml';
import { SurveyConfig, SiteConfig, Prepopulation, PERSON_ROSTER_KEYS, type PersonValues } from './config.struct.ts';
import { ConfigError, toProblems, type Problem } from './errors.ts';
import { ADS_GROUP, allFields, ballotSlots } from './layout.ts';
import { SECRET_ADVICE, secretWeakness } from './secrets.ts';
import { toPublicSurvey, type PublicSurvey } from './public.ts';
import { readPersonMapYaml } from './person-map-yaml.ts';

/** A survey as loaded from its folder: its slug, folder and validated configuration. */
export interface LoadedSurvey {
  slug: string;
  dir: string;
  config: SurveyConfig;
}

/** The folder that holds one folder per survey; `SURVEYS_DIR` overrides `./surveys`. */
export function surveysDir(): string {
  return path.resolve(process.env.SURVEYS_DIR ?? 'surveys');
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(file, [{ path: '', message: `cannot be read (${(error as NodeJS.ErrnoException).code})` }]);
  }
}

/** A YAML file parsed, with the line counter that turns a node's offset into its line and column. */
export interface YamlFile {
  document: Document;
  lineCounter: LineCounter;
}

/**
 * Parses a YAML file's text, keeping its nodes (and so where each value is); throws a
 * ConfigError naming the line and column of a syntax error or a repeated key.
 */
export function readYamlDocument(file: string, text = readText(file)): YamlFile {
  try {
    // The yaml library's own check for repeated keys compares every key with every other: a
    // prepopulation file of 20,000 people would take minutes. The same check, with a set, takes
    // a blink; it reports the repeated key as the library does.
    const lineCounter = new LineCounter();
    const document = parseDocument(text, { prettyErrors: true, uniqueKeys: false, lineCounter });
    if (document.errors.length) throw document.errors[0];
    let repeated: { key: string; offset: number } | undefined;
    visit(document, {
      Map(_key, map) {
        if (!isMap(map)) return;
        const seen = new Set<string>();
        for (const pair of map.items) {
          const key = isScalar(pair.key) ? String(pair.key.value) : JSON.stringify(pair.key);
          if (seen.has(key) && !repeated) repeated = { key, offset: (isScalar(pair.key) && pair.key.range?.[0]) || 0 };
          seen.add(key);
        }
      },
    });
    if (repeated) {
      const { line, col } = lineCounter.linePos(repeated.offset);
      throw new ConfigError(file, [
        { path: `line ${line}, column ${col}`, message: `is not valid YAML: Map keys must be unique ("${repeated.key}" is repeated)` },
      ]);
    }
    return { document, lineCounter };
  } catch (error) {
    if (error instanceof YAMLParseError) {
      const [line, col] = [error.linePos?.[0].line, error.linePos?.[0].col];
      throw new ConfigError(file, [{ path: `line ${line}, column ${col}`, message: `is not valid YAML: ${error.message.split('\n')[0]}` }]);
    }
    throw error;
  }
}

function readYaml(file: string, text = readText(file)): unknown {
  return readYamlDocument(file, text).document.toJS() ?? {};
}

function validate<T>(file: string, value: unknown, struct: Struct<T, unknown>): T {
  try {
    return create(value, struct);
  } catch (error) {
    if (error instanceof StructError) throw new ConfigError(file, toProblems(error));
    throw error;
  }
}

/** Checks that go across keys, which a struct of one key cannot see. */
function crossCheck(config: SurveyConfig): Problem[] {
  const problems: Problem[] = [];
  const seen = new Map<string, string>();
  config.layout.forEach((row, r) =>
    row.forEach((field, f) => {
      for (const sub of [field, ...(field.fields ?? [])]) {
        const where = sub === field ? `layout[${r}][${f}]` : `layout[${r}][${f}].fields[${field.fields!.indexOf(sub)}]`;
        if (seen.has(sub.name)) problems.push({ path: `${where}.name`, message: `"${sub.name}" is already the name of ${seen.get(sub.name)}` });
        else seen.set(sub.name, where);
      }
    }),
  );
  const groups = Object.keys(config.categories).filter((group) => group !== ADS_GROUP);
  if (groups.length === 0) problems.push({ path: 'categories', message: 'needs at least one category group besides ADS' });
  const ads = config.categories[ADS_GROUP] as Record<string, string[]> | undefined;
  for (const category of Object.keys(ads ?? {})) {
    if (!groups.includes(category))
      problems.push({ path: `categories.ADS.${category}`, message: `names no category; the categories are ${groups.join(', ')}` });
  }
  if (allFields(config.layout).some((field) => field.type === 'nomination') && config.nominees === undefined) {
    problems.push({ path: 'nominees', message: 'is required by the nomination field: name the nominee list file (CSV or JSON Lines) in the survey folder' });
  }
  const algolia = (['algolia_app_id', 'algolia_api_key', 'algolia_index'] as const).filter((key) => config[key] !== undefined);
  if (algolia.length > 0 && algolia.length < 3) {
    problems.push({
      path: algolia[0],
      message: 'algolia_app_id, algolia_api_key (search-only) and algolia_index go together: set all three, or none for the built-in search',
    });
  }
  const region = config.tally.region_match;
  if (region.rule !== 'off' && (!region.voter_field || !allFields(config.layout).some((field) => field.name === region.voter_field))) {
    problems.push({
      path: 'tally.region_match.voter_field',
      message: `must name a field of the layout that holds the voter's region when the rule is ${region.rule}${region.voter_field ? `; there is no field "${region.voter_field}"` : ''}`,
    });
  }
  if (config.results.sealed && !config.expiration_date) {
    problems.push({ path: 'results.sealed', message: 'needs an expiration_date: the results stay sealed until that close' });
  }
  if (config.vote_requirement > ballotSlots(config).length + config.write_in_limit) {
    problems.push({ path: 'vote_requirement', message: 'is more than the ballot has places for votes' });
  }
  return problems;
}

/** Loads and validates `surveys/<slug>/survey.yaml`; throws a ConfigError naming the file and key path on any mistake. */
export function loadSurvey(slug: string, dir = surveysDir()): LoadedSurvey {
  const folder = path.join(dir, slug);
  const file = path.join(folder, 'survey.yaml');
  const config = validate(file, readYaml(file), SurveyConfig);
  const problems = crossCheck(config);
  if (problems.length) throw new ConfigError(file, problems);
  return { slug, dir: folder, config };
}

/** The slugs of every survey folder, sorted. */
export function listSurveySlugs(dir = surveysDir()): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, 'survey.yaml')))
    .map((entry) => entry.name)
    .sort();
}

/** Loads every survey, checking that no two share a project_id. */
export function loadAllSurveys(dir = surveysDir()): LoadedSurvey[] {
  const surveys = listSurveySlugs(dir).map((slug) => loadSurvey(slug, dir));
  const owners = new Map<string, string>();
  for (const survey of surveys) {
    const other = owners.get(survey.config.project_id);
    if (other) {
      throw new ConfigError(path.join(survey.dir, 'survey.yaml'), [
        { path: 'project_id', message: `"${survey.config.project_id}" is already the project_id of survey "${other}"` },
      ]);
    }
    owners.set(survey.config.project_id, survey.slug);
  }
  return surveys;
}

/** Loads `surveys/site.yaml`, the site-wide settings. */
export function loadSite(dir = surveysDir()): SiteConfig {
  const file = path.join(dir, 'site.yaml');
  const site = validate(file, readYaml(file), SiteConfig);
  if (!listSurveySlugs(dir).includes(site.default_survey)) {
    throw new ConfigError(file, [{ path: 'default_survey', message: `names no survey folder; the surveys are ${listSurveySlugs(dir).join(', ')}` }]);
  }
  return site;
}

/** The folder for personal data kept outside the repository, `PEERVOTE_PRIVATE_DIR`; undefined when unset. */
export function privateDir(): string | undefined {
  const dir = process.env.PEERVOTE_PRIVATE_DIR?.trim();
  return dir ? path.resolve(dir) : undefined;
}

/**
 * Where a survey's prepopulation file is, or is to be written: under `PEERVOTE_PRIVATE_DIR/<slug>/`
 * when that is set and holds it (or when `forWriting`), else in the survey's folder. A survey
 * that names no file gets `prepopulation.yaml`, the name `invite` writes.
 */
export function prepopulationFile(survey: LoadedSurvey, forWriting = false): string {
  const source = typeof survey.config.prepopulation === 'string' ? survey.config.prepopulation : 'prepopulation.yaml';
  const outside = privateDir();
  if (outside) {
    const file = path.join(outside, survey.slug, source);
    if (forWriting || existsSync(file)) return file;
  }
  return path.join(survey.dir, source);
}

/**
 * The secrets of a prepopulation map too weak to be a personal link's only key, each named by
 * its first three characters (the whole secret is a credential and stays out of logs).
 */
function weakSecrets(map: Record<string, PersonValues>, prefix = ''): Problem[] {
  return Object.keys(map).flatMap((secret) => {
    const weakness = secretWeakness(secret);
    if (!weakness) return [];
    const message = `a personal secret ${weakness}; use 12 or more random characters, e.g. from: ${SECRET_ADVICE}`;
    return [{ path: `${prefix}${secret.slice(0, 3)}…`, message }];
  });
}

/**
 * Server only: the survey's prepopulation map (secret → values), read from the survey
 * file or from the YAML file it names (in `PEERVOTE_PRIVATE_DIR/<slug>/` when there). Never
 * handed to a page or a script.
 */
export function loadPrepopulation(survey: LoadedSurvey): Record<string, PersonValues> {
  const source = survey.config.prepopulation;
  if (source === undefined) return {};
  if (typeof source !== 'string') {
    const weak = weakSecrets(source, 'prepopulation.');
    if (weak.length) throw new ConfigError(path.join(survey.dir, 'survey.yaml'), weak);
    return source;
  }
  const file = prepopulationFile(survey);
  const text = readText(file);
  const read = readPersonMapYaml(text) ?? readYaml(file, text);
  // Prepopulation coerces nothing (its unions only choose), so a map that already is one is taken
  // as it is: create's coercion pass would validate every person twice more (20,000 people: half a second).
  const map = is(read, Prepopulation) ? read : validate(file, read, Prepopulation);
  if (typeof map === 'string') throw new ConfigError(file, [{ path: '', message: 'expected a mapping of secret to values, got a text' }]);
  const names = new Set([...allFields(survey.config.layout).map((field) => field.name), ...PERSON_ROSTER_KEYS, ...survey.config.roster_columns]);
  const problems = Object.entries(map).flatMap(([secret, values]) =>
    Object.keys(values)
      .filter((name) => !names.has(name))
      .map((name) => ({ path: `${secret}.${name}`, message: 'names no field of the layout, roster key (email, name, nominee_id) or roster_columns entry' })),
  );
  problems.push(...weakSecrets(map));
  if (problems.length) throw new ConfigError(file, problems);
  return map;
}

/** What every survey page is rendered from: the survey without private data, and the site settings. */
export interface SurveyPageProps {
  survey: PublicSurvey;
  site: SiteConfig;
}

/** One static path per survey folder, for `getStaticPaths`; a broken survey file fails the build here. */
export function surveyStaticPaths(): Array<{ params: { slug: string }; props: SurveyPageProps }> {
  const site = loadSite();
  return loadAllSurveys().map(({ slug, config }) => ({
    params: { slug },
    props: { survey: toPublicSurvey(slug, config), site },
  }));
}
