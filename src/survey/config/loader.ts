import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { is, validate, type Struct } from 'superstruct';
import { SurveyConfig, SiteConfig, Prepopulation, PERSON_ROSTER_KEYS, type PersonValues } from './config.struct.ts';
import { ConfigError, formatPath, toKeyedProblems, unreadable, type FileProblem, type KeyedProblem } from '../errors.ts';
import { ADS_GROUP, allFields, ballotSlots } from './layout.ts';
import { SECRET_ADVICE, secretWeakness } from '../people/secrets.ts';
import { toPublicSurvey, type PublicSurvey } from './public.ts';
import { readPersonMapYaml } from '../people/person-map-yaml.ts';
import { isFieldName } from '../ballots/ballot-keys.ts';
import { hideSecretKey, readYamlFile, type YamlFile } from './yaml-file.ts';
import { localizeSurvey, translationGaps, translationProblems, withPseudoLocale } from './translations.ts';
import { pseudoLocaleWanted } from '../../i18n/pseudo.ts';
import { loadMailTemplate, MAIL_TEMPLATE_KINDS } from '../mail/mail-templates.ts';

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

/** A file's text, or the problem that it cannot be read (at its first line: it has no place of its own). */
function readText(file: string, advice = ''): { text: string; problems: [] } | { text: undefined; problems: FileProblem[] } {
  try {
    return { text: readFileSync(file, 'utf8'), problems: [] };
  } catch (error) {
    return { text: undefined, problems: [{ file, line: 1, column: 1, path: '(file)', message: `${unreadable(error)}${advice}` }] };
  }
}

/** A YAML file read and validated against a struct: the value when it is valid, and every problem found, placed. */
interface Validated<T> {
  value: T | undefined;
  /** The value as written, before validation: what can still be read of a file with problems. */
  raw: unknown;
  problems: FileProblem[];
  yaml?: YamlFile;
}

function readValidated<T>(file: string, struct: Struct<T, unknown>, secretsAt?: ReadonlyArray<string | number>): Validated<T> {
  const { text, problems } = readText(file);
  if (text === undefined) return { value: undefined, raw: undefined, problems };
  const yaml = readYamlFile(file, text, secretsAt);
  if (yaml.value === undefined) return { value: undefined, raw: undefined, problems: yaml.problems, yaml };
  const [error, value] = validate(yaml.value, struct, { coerce: true });
  let found: KeyedProblem[] = error ? toKeyedProblems(error) : [];
  if (secretsAt) found = personalProblems(found, secretsAt);
  return { value: error || yaml.problems.length ? undefined : value, raw: yaml.value, problems: [...yaml.problems, ...yaml.place(found)], yaml };
}

/** What the prepopulation key holds, when it holds neither. */
const NEITHER_FILE_NOR_MAP = "expected the name of a YAML file in the survey folder, or a mapping of each personal secret to that person's values";

/**
 * The problems of a prepopulation map (the one at `map`) as they may be shown: each secret hidden,
 * and without the value found, which is a person's (a phone number written as a number, say).
 * A union (the key's file name or map, a value's text or list of texts) fails with each of its
 * branches too: one problem a place is enough, and none at the key when the map's own say where.
 */
function personalProblems(problems: KeyedProblem[], map: ReadonlyArray<string | number>): KeyedProblem[] {
  const places = new Set<string>();
  const inside = problems.some((problem) => isUnder(problem.keys, map));
  return problems.flatMap((problem) => {
    const atKey = map.length > 0 && formatPath(problem.keys) === formatPath(map);
    if (!atKey && !isUnder(problem.keys, map)) return [problem];
    if (places.has(problem.path) || (atKey && inside)) return [];
    places.add(problem.path);
    if (atKey) return [{ ...problem, message: NEITHER_FILE_NOR_MAP }];
    const message = problem.message.replace(/^expected union\b/, 'expected a text or a list of texts').replace(/, got [\s\S]*$/, '');
    return [hideSecretKey({ ...problem, message }, map.length)];
  });
}

/** Whether a key path goes through a map's keys: `['prepopulation', 'k7Q…']` under `['prepopulation']`. */
function isUnder(keys: ReadonlyArray<string | number>, map: ReadonlyArray<string | number>): boolean {
  return keys.length > map.length && map.every((key, index) => String(keys[index]) === String(key));
}

/** A problem found across keys, at the key path given as keys. */
function keyed(keys: Array<string | number>, message: string): KeyedProblem {
  return { keys, path: formatPath(keys), message };
}

/** Checks that go across keys, which a struct of one key cannot see. */
function crossCheck(config: SurveyConfig): KeyedProblem[] {
  const problems: KeyedProblem[] = [];
  const seen = new Map<string, string>();
  config.layout.forEach((row, r) =>
    row.forEach((field, f) => {
      for (const sub of [field, ...(field.fields ?? [])]) {
        const where = sub === field ? ['layout', r, f] : ['layout', r, f, 'fields', field.fields!.indexOf(sub)];
        if (seen.has(sub.name)) problems.push(keyed([...where, 'name'], `"${sub.name}" is already the name of ${seen.get(sub.name)}`));
        else seen.set(sub.name, formatPath(where));
      }
    }),
  );
  problems.push(...translationProblems(config));
  if (config.strict_translations) problems.push(...translationGaps(config));
  const groups = Object.keys(config.categories).filter((group) => group !== ADS_GROUP);
  if (groups.length === 0) problems.push(keyed(['categories'], 'needs at least one category group besides ADS'));
  const ads = config.categories[ADS_GROUP] as Record<string, string[]> | undefined;
  for (const category of Object.keys(ads ?? {})) {
    if (!groups.includes(category)) problems.push(keyed(['categories', ADS_GROUP, category], `names no category; the categories are ${groups.join(', ')}`));
  }
  if (allFields(config.layout).some((field) => field.type === 'nomination') && config.nominees === undefined) {
    problems.push(keyed(['nominees'], 'is required by the nomination field: name the nominee list file (CSV or JSON Lines) in the survey folder'));
  }
  const algolia = (['algolia_app_id', 'algolia_api_key', 'algolia_index'] as const).filter((key) => config[key] !== undefined);
  if (algolia.length > 0 && algolia.length < 3) {
    problems.push(
      keyed([algolia[0]], 'algolia_app_id, algolia_api_key (search-only) and algolia_index go together: set all three, or none for the built-in search'),
    );
  }
  const region = config.tally.region_match;
  if (region.rule !== 'off' && (!region.voter_field || !allFields(config.layout).some((field) => field.name === region.voter_field))) {
    problems.push(
      keyed(
        ['tally', 'region_match', 'voter_field'],
        `must name a field of the layout that holds the voter's region when the rule is ${region.rule}${region.voter_field ? `; there is no field "${region.voter_field}"` : ''}`,
      ),
    );
  }
  if (config.results.sealed && !config.expiration_date) {
    problems.push(keyed(['results', 'sealed'], 'needs an expiration_date: the results stay sealed until that close'));
  }
  if (config.vote_requirement > ballotSlots(config).length + config.write_in_limit) {
    problems.push(keyed(['vote_requirement'], 'is more than the ballot has places for votes'));
  }
  return problems;
}

/** The file a survey folder's settings are read from. */
function surveyFile(folder: string): string {
  return path.join(folder, 'survey.yaml');
}

/** The key path of the prepopulation map in survey.yaml, whose keys are personal secrets. */
const INLINE_PREPOPULATION = ['prepopulation'];

/**
 * A survey's survey.yaml read in full: the survey when it is valid, and every problem found in it
 * (its YAML, its struct, the rules across keys), each at its line and column. The value as written
 * is kept for what can still be read of a file with problems (its project_id, the files it names).
 */
export interface SurveyReading {
  slug: string;
  dir: string;
  file: string;
  survey: LoadedSurvey | undefined;
  raw: Record<string, unknown>;
  problems: FileProblem[];
  /** What the build tells without stopping: the texts a further language leaves untranslated (none under `strict_translations`). */
  warnings: FileProblem[];
  /** Places problems about the file's keys at their line and column. */
  place(problems: readonly KeyedProblem[]): FileProblem[];
}

/** Reads and validates `surveys/<slug>/survey.yaml`, collecting every problem instead of stopping at the first. */
export function readSurvey(slug: string, dir = surveysDir()): SurveyReading {
  const folder = path.join(dir, slug);
  const file = surveyFile(folder);
  const read = readValidated(file, SurveyConfig, INLINE_PREPOPULATION);
  const place = (found: readonly KeyedProblem[]) =>
    read.yaml ? read.yaml.place(found) : found.map(({ path, message }) => ({ file, line: 1, column: 1, path, message }));
  const problems = [...read.problems, ...(read.value ? place(crossCheck(read.value)) : [])];
  const raw = read.raw && typeof read.raw === 'object' && !Array.isArray(read.raw) ? (read.raw as Record<string, unknown>) : {};
  const survey = read.value && !problems.length ? { slug, dir: folder, config: inPseudoLocale(read.value, folder) } : undefined;
  const warnings = survey && !survey.config.strict_translations ? place(translationGaps(survey.config)) : [];
  return { slug, dir: folder, file, survey, raw, problems, warnings, place };
}

/**
 * The survey offered in the pseudo-locale too in a build whose catalogue has it (`PSEUDO_LOCALE=1`,
 * src/i18n/pseudo.ts), its mail in it from its templates' English; else as it is.
 */
function inPseudoLocale(config: SurveyConfig, folder: string): SurveyConfig {
  if (!pseudoLocaleWanted()) return config;
  const mail: Record<string, { subject: string; body: string }> = {};
  for (const kind of MAIL_TEMPLATE_KINDS) {
    try {
      mail[kind] = loadMailTemplate(folder, kind);
    } catch {
      // A template with problems is the surveys' check's to report; its pseudo-locale goes without it.
    }
  }
  return withPseudoLocale(config, mail);
}

/** Loads and validates `surveys/<slug>/survey.yaml`; throws a ConfigError naming every problem, with its file, line, column and key path. */
export function loadSurvey(slug: string, dir = surveysDir()): LoadedSurvey {
  const { survey, problems } = readSurvey(slug, dir);
  if (!survey) throw new ConfigError(problems);
  return survey;
}

/** The slugs of every survey folder, sorted; a hidden folder (`.name`, such as one being written) is none. */
export function listSurveySlugs(dir = surveysDir()): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && existsSync(path.join(dir, entry.name, 'survey.yaml')))
    .map((entry) => entry.name)
    .sort();
}

/**
 * The problem of each survey in `readings` whose project_id another survey of `all` has too,
 * at its project_id: the later survey (by slug) is told whose id it is; the first is told only
 * when none of the later ones is among `readings`.
 */
export function projectIdProblems(readings: readonly SurveyReading[], all: readonly SurveyReading[] = readings): FileProblem[] {
  const holders = new Map<string, SurveyReading[]>();
  for (const reading of [...all].sort((a, b) => (a.slug < b.slug ? -1 : 1))) {
    const id = reading.survey?.config.project_id ?? reading.raw.project_id;
    if (typeof id === 'string' && id) holders.set(id, [...(holders.get(id) ?? []), reading]);
  }
  return readings.flatMap((reading) => {
    const id = reading.survey?.config.project_id ?? reading.raw.project_id;
    const same = typeof id === 'string' ? (holders.get(id) ?? []) : [];
    if (same.length < 2) return [];
    const first = same[0];
    const where = [keyed(['project_id'], '')];
    if (first.slug !== reading.slug) {
      return reading.place(where.map((problem) => ({ ...problem, message: `"${id}" is already the project_id of survey "${first.slug}"` })));
    }
    if (same.slice(1).some((later) => readings.includes(later))) return [];
    const others = same.slice(1).map((later) => `"${later.slug}"`);
    return reading.place(where.map((problem) => ({ ...problem, message: `"${id}" is also the project_id of survey ${others.join(', ')}` })));
  });
}

/** Loads every survey, checking that no two share a project_id; throws a ConfigError naming every problem of every survey.yaml. */
export function loadAllSurveys(dir = surveysDir()): LoadedSurvey[] {
  const readings = listSurveySlugs(dir).map((slug) => readSurvey(slug, dir));
  const problems = [...readings.flatMap((reading) => reading.problems), ...projectIdProblems(readings)];
  if (problems.length) throw new ConfigError(problems);
  return readings.map((reading) => reading.survey!);
}

/** Reads and validates `surveys/site.yaml`, the site-wide settings, collecting every problem. */
export function readSite(dir = surveysDir()): { site: SiteConfig | undefined; problems: FileProblem[] } {
  const file = path.join(dir, 'site.yaml');
  const read = readValidated(file, SiteConfig);
  // The default survey is looked for even when another key is wrong: every problem at once.
  const named = (read.raw as Partial<SiteConfig> | undefined)?.default_survey;
  if (read.yaml && is(named, SiteConfig.schema.default_survey) && !listSurveySlugs(dir).includes(named)) {
    const problem = keyed(['default_survey'], `names no survey folder; the surveys are ${listSurveySlugs(dir).join(', ')}`);
    return { site: undefined, problems: [...read.problems, ...read.yaml.place([problem])] };
  }
  return { site: read.value, problems: read.problems };
}

/** Loads `surveys/site.yaml`, the site-wide settings; throws a ConfigError naming every problem. */
export function loadSite(dir = surveysDir()): SiteConfig {
  const { site, problems } = readSite(dir);
  if (!site) throw new ConfigError(problems);
  return site;
}

/** The folder for personal data kept outside the repository, `PEERVOTE_PRIVATE_DIR`; undefined when unset. */
export function privateDir(): string | undefined {
  const dir = process.env.PEERVOTE_PRIVATE_DIR?.trim();
  return dir ? path.resolve(dir) : undefined;
}

/** What the prepopulation's reading needs of a survey: where it is, its prepopulation key and, when the survey is valid, its fields. */
type PrepopulationSurvey = Pick<LoadedSurvey, 'slug' | 'dir'> & {
  config: Pick<SurveyConfig, 'prepopulation'> & Partial<Pick<SurveyConfig, 'layout' | 'roster_columns'>>;
};

/**
 * Where a survey's prepopulation file is, or is to be written: under `PEERVOTE_PRIVATE_DIR/<slug>/`
 * when that is set and holds it (or when `forWriting`), else in the survey's folder. A survey
 * that names no file gets `prepopulation.yaml`, the name `invite` writes.
 */
export function prepopulationFile(survey: PrepopulationSurvey, forWriting = false): string {
  const source = typeof survey.config.prepopulation === 'string' ? survey.config.prepopulation : 'prepopulation.yaml';
  const outside = privateDir();
  if (outside) {
    const file = path.join(outside, survey.slug, source);
    if (forWriting || existsSync(file)) return file;
  }
  return path.join(survey.dir, source);
}

/**
 * The problems of a prepopulation map found under `prefix` (in survey.yaml, or [] in a file of its
 * own): a value for no field (when the layout is known), and a secret too weak to be a personal
 * link's only key. Each names the secret by its first three characters: the whole secret is a
 * credential and stays out of logs.
 */
function personProblems(map: Record<string, PersonValues>, names: Set<string> | undefined, prefix: string[]): KeyedProblem[] {
  const problems: KeyedProblem[] = [];
  for (const [secret, values] of Object.entries(map)) {
    for (const name of names ? Object.keys(values) : []) {
      if (!names!.has(name)) {
        const message = 'names no field of the layout, roster key (email, name, nominee_id) or roster_columns entry';
        problems.push(hideSecretKey({ keys: [...prefix, secret, name], path: '', message, atKey: true }, prefix.length));
      }
    }
    const weakness = secretWeakness(secret);
    if (weakness) {
      const message = `a personal secret ${weakness}; use 12 or more random characters, e.g. from: ${SECRET_ADVICE}`;
      problems.push(hideSecretKey({ keys: [...prefix, secret], path: '', message, atKey: true }, prefix.length));
    }
  }
  return problems;
}

/**
 * Whether a map of the fast reader (secret → field name → text) is a Prepopulation, told without
 * the struct, which costs some twenty times as much: every secret not empty, every field name a
 * FieldName. Only a `true` is final; a map turned down goes through the struct, for its problems.
 * Exported only so its unit test can compare it with the struct.
 * @internal
 */
export function isPlainPersonMap(map: Record<string, Record<string, string>>): boolean {
  return Object.entries(map).every(([secret, values]) => secret !== '' && Object.keys(values).every(isFieldName));
}

/** Places problems in a file read again for it: only a file with problems pays for a second reading. */
function placeInFile(file: string, found: readonly KeyedProblem[], secretsAt: ReadonlyArray<string | number>, text?: string): FileProblem[] {
  const read = text === undefined ? readText(file).text : text;
  if (read === undefined) return found.map(({ path, message }) => ({ file, line: 1, column: 1, path, message }));
  return readYamlFile(file, read, secretsAt).place(found);
}

/**
 * Server only: the survey's prepopulation map (secret → values), read from the survey file or from
 * the YAML file it names (in `PEERVOTE_PRIVATE_DIR/<slug>/` when there), and every problem found
 * in it, each at its line and column. The map's keys and values never appear in a problem, but a
 * secret's first three characters. Without the survey's layout (a survey.yaml with problems), the
 * values are not matched with its fields. `given` is the file's text (or a piece of it) already read.
 */
export function readPrepopulation(survey: PrepopulationSurvey, given?: string): { map: Record<string, PersonValues>; problems: FileProblem[] } {
  const source = survey.config.prepopulation;
  const { layout, roster_columns: columns = [] } = survey.config;
  const names = layout ? new Set([...allFields(layout).map((field) => field.name), ...PERSON_ROSTER_KEYS, ...columns]) : undefined;
  if (source === undefined) return { map: {}, problems: [] };
  if (typeof source !== 'string') {
    const found = personProblems(source, names, INLINE_PREPOPULATION);
    return { map: source, problems: found.length ? placeInFile(surveyFile(survey.dir), found, INLINE_PREPOPULATION) : [] };
  }
  const file = prepopulationFile(survey);
  const { text, problems } = given === undefined ? readText(file, '; check the `prepopulation` key of survey.yaml') : { text: given, problems: [] };
  if (text === undefined) return { map: {}, problems };
  // The fast reader answers for the shape `invite` writes; any other text is the library's, whose
  // document then places the problems. A valid file of 20,000 people is never read twice.
  const fast = readPersonMapYaml(text);
  const yaml = fast ? undefined : readYamlFile(file, text, []);
  if (yaml && yaml.value === undefined) return { map: {}, problems: yaml.problems };
  const read = fast ?? yaml!.value;
  let found: KeyedProblem[] = [];
  // Prepopulation coerces nothing (its unions only choose), so a map that already is one is taken as
  // it is: a coercion pass would validate every person twice more (20,000 people: half a second).
  if (typeof read === 'string') found = [{ keys: [], path: '', message: 'expected a mapping of secret to values, got a text' }];
  else if (!(fast && isPlainPersonMap(fast)) && !is(read, Prepopulation)) {
    const [error] = validate(read, Prepopulation);
    // The map's failures only: the file's text is no file name, the union's other branch.
    found = personalProblems(toKeyedProblems(error!), []).filter((problem) => problem.keys.length > 0);
  } else found = personProblems(read as Record<string, PersonValues>, names, []);
  const placed = found.length ? (yaml ? yaml.place(found) : placeInFile(file, found, [], text)) : [];
  const all = [...(yaml?.problems ?? []), ...placed];
  return { map: all.length ? {} : (read as Record<string, PersonValues>), problems: all };
}

/**
 * The survey's prepopulation map (secret → values), read from the survey file or from the YAML
 * file it names (in `PEERVOTE_PRIVATE_DIR/<slug>/` when there). Never handed to a page or a
 * script. Throws a ConfigError naming every problem. The product reads people from the database
 * (src/server/people/), which readPrepopulation fills; this whole map is for the tests and benches.
 * @internal
 */
export function loadPrepopulation(survey: LoadedSurvey): Record<string, PersonValues> {
  const { map, problems } = readPrepopulation(survey);
  if (problems.length) throw new ConfigError(problems);
  return map;
}

/** What every survey page is rendered from: the survey without private data, and the site settings. */
export interface SurveyPageProps {
  /** The survey in the page's language (translations.ts). */
  survey: PublicSurvey;
  site: SiteConfig;
  /** The page's language, one of the survey's `languages`. */
  lang: string;
}

/** One static path per survey folder, for `getStaticPaths`; a broken survey file fails the build here. */
export function surveyStaticPaths(): Array<{ params: { slug: string }; props: SurveyPageProps }> {
  const site = loadSite();
  return loadAllSurveys().map(({ slug, config }) => ({
    params: { slug },
    props: { survey: toPublicSurvey(slug, config), site, lang: config.languages[0]! },
  }));
}

/**
 * One static path per survey and further language it offers (`/es/{slug}/`), for the pages under
 * `src/pages/[lang]/`: the survey in that language. The default language keeps the plain addresses.
 */
export function translatedStaticPaths(): Array<{ params: { lang: string; slug: string }; props: SurveyPageProps }> {
  const site = loadSite();
  return loadAllSurveys().flatMap(({ slug, config }) =>
    config.languages.slice(1).map((lang) => ({
      params: { lang, slug },
      props: { survey: toPublicSurvey(slug, localizeSurvey(config, lang)), site, lang },
    })),
  );
}
