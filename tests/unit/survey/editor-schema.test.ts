import { globSync, readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { array, boolean, create, defaulted, dynamic, enums, integer, object, optional, string, union, validate, type Struct } from 'superstruct';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { SiteConfig, SurveyConfig } from '../../../src/survey/config/config.struct.ts';
import { FIELD_TYPES } from '../../../src/survey/config/field.struct.ts';
import { EDITOR_SCHEMAS, makeSchema, type EditorSchema } from '../../../src/survey/config/editor-schemas.ts';
import { structSchema, type DescribedKey, type JsonSchema } from '../../../src/survey/config/struct-schema.ts';

// The editors' JSON Schemas against the structs they are made from: the key table describes
// every key and no other, its defaults are what superstruct fills in, its enums are the structs',
// and the schema takes every file the struct takes and refuses what it refuses, but for the few
// checks a JSON Schema cannot make, named below.

const [SURVEY, SITE, OPERATORS] = EDITOR_SCHEMAS;

/** The smallest survey the struct takes. */
const MINIMAL_SURVEY = {
  project_id: 'probe',
  layout: [[{ name: 'email', type: 'email' }]],
  categories: { Medicine: ['Cardiology'] },
};
const MINIMAL_SITE = { default_survey: 'probe' };
const MINIMAL_OPERATORS = {};

/** The smallest file of each kind the struct takes. */
const SMALLEST = new Map<EditorSchema, Record<string, unknown>>([
  [SURVEY, MINIMAL_SURVEY],
  [SITE, MINIMAL_SITE],
  [OPERATORS, MINIMAL_OPERATORS],
]);

/** The smallest file of each kind, with an element in every list whose keys are tried. */
const MINIMAL = new Map<EditorSchema, Record<string, unknown>>([
  [SURVEY, { ...MINIMAL_SURVEY, faces: [{ title: 'Cardiology' }], asktheexpert: [{ title: 'Ask a surgeon' }] }],
  [SITE, MINIMAL_SITE],
  [OPERATORS, { operators: [{ email: 'ana@metrohealth.example', roles: { '*': 'auditor' } }] }],
]);

/** A validator of the schema as an editor reads it: draft-07, every error, the editors' own keywords known. */
function compile(schema: JsonSchema): ValidateFunction {
  const ajv = new Ajv({ allErrors: true });
  ajv.addVocabulary(['markdownDescription', 'enumDescriptions', 'markdownEnumDescriptions', 'patternErrorMessage']);
  return ajv.compile(schema);
}

const validators = new Map(EDITOR_SCHEMAS.map((entry) => [entry, compile(makeSchema(entry).schema)]));

/** A key path's steps: `layout[][].type` → layout, 0, 0, type (the first element of each list). */
function steps(path: string): Array<string | number> {
  return [...path.matchAll(/([^.[\]]+)|\[\]/g)].map((match) => match[1] ?? 0);
}

/** A copy of `document` with the value at `path` set, or removed when `value` is undefined; missing parents are made. */
function withValue(document: unknown, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(document) as Record<string, unknown>;
  const keys = steps(path);
  let node = copy as Record<string | number, unknown>;
  keys.slice(0, -1).forEach((key, i) => {
    if (node[key] === null || typeof node[key] !== 'object') node[key] = typeof keys[i + 1] === 'number' ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  });
  const last = keys.at(-1)!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

/** The value at a key path. */
function valueAt(document: unknown, path: string): unknown {
  return steps(path).reduce<unknown>((node, key) => (node as Record<string | number, unknown> | undefined)?.[key], document);
}

/** Whether the struct takes a document, as the build does (with its coercions and defaults). */
const structTakes = (struct: Struct<any, any>, document: unknown) => !validate(document, struct, { coerce: true })[0];

describe('the key table', () => {
  for (const entry of EDITOR_SCHEMAS) {
    it(`describes every key of ${entry.yaml} and no other, with the defaults the struct has`, () => {
      expect(makeSchema(entry).problems).toEqual([]);
      expect(makeSchema(entry).keys.every((key) => key.meaning.length > 0)).toBe(true);
    });
  }

  it('knows survey.yaml by its keys, nested ones included', () => {
    const paths = makeSchema(SURVEY).keys.map((key) => key.path);
    expect(paths).toEqual(expect.arrayContaining(['project_id', 'layout[][].validation.pattern', 'tally.self_vote.rule', 'mail.receipt', 'results.sealed']));
    expect(paths).toHaveLength(new Set(paths).size);
  });

  // The walk itself, on small structs, fails where the table and the struct part ways.
  const Probe = object({
    name: string(),
    size: defaulted(integer(), 3),
    kind: defaulted(enums(['a', 'b']), 'a'),
    note: optional(string()),
    parts: defaulted(object({ on: defaulted(boolean(), false) }), {}),
    either: optional(union([string(), array(string())])),
  });
  const table = {
    name: { meaning: 'its name' },
    size: { meaning: 'its size', default: 3 },
    kind: { meaning: 'its kind', default: 'a', values: { a: 'one', b: 'two' } },
    note: { meaning: 'a note' },
    parts: { meaning: 'its parts' },
    'parts.on': { meaning: 'on or off', default: false },
    either: { meaning: 'a text or texts', schema: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] } },
  };
  const heading = { title: 'Probe', description: 'A probe.' };
  const problems = (changes: Record<string, unknown>) => structSchema(Probe, { ...table, ...changes } as never, heading).problems;

  it('finds nothing wrong with a table that matches its struct', () => {
    const { schema, problems } = structSchema(Probe, table, heading);
    expect(problems).toEqual([]);
    expect(schema).toMatchObject({
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: {
        size: { type: 'integer', default: 3 },
        kind: { type: 'string', enum: ['a', 'b'], enumDescriptions: ['one', 'two'] },
        parts: { default: { on: false }, properties: { on: { type: 'boolean', default: false } } },
      },
    });
  });

  it.each([
    ['a key without a meaning', { note: undefined }, 'note: no meaning in the table'],
    ['a line for a key the struct lacks', { colour: { meaning: 'no such key' } }, 'colour: the table describes a key the struct does not have'],
    ['a default the struct does not fill in', { note: { meaning: 'a note', default: '' } }, 'note: the table states a default the struct does not fill in'],
    ['a default left unstated', { size: { meaning: 'its size' } }, 'size: the struct fills in a default the table does not state'],
    [
      'values that are not the enum',
      { kind: { meaning: 'its kind', default: 'a', values: { a: 'one' } } },
      "kind: the table's values (a) are not the struct's (a, b)",
    ],
    ['a union without its schema', { either: { meaning: 'a text or texts' } }, 'either: a union struct keeps its shape to itself'],
  ])('names %s', (_, changes, problem) => {
    expect(problems(changes).join('\n')).toContain(problem);
  });

  it('names a dynamic struct without its schema', () => {
    const Dynamic = object({ shape: dynamic(() => string()) });
    expect(structSchema(Dynamic, { shape: { meaning: 'a shape' } }, heading).problems).toEqual([
      'shape: a dynamic struct keeps its shape to itself: give its schema in the table',
    ]);
  });
});

describe('the defaults', () => {
  for (const entry of EDITOR_SCHEMAS) {
    it(`of ${entry.yaml} are what the struct fills in for the smallest file it takes`, () => {
      const keys = makeSchema(entry).keys;
      expect(keys.filter((key) => key.default !== undefined).length).toBeGreaterThan(entry === SURVEY ? 20 : 0);
      // The smallest file, then one with a tile in each list, so that the tiles' keys are filled in too.
      for (const given of new Set([SMALLEST.get(entry)!, MINIMAL.get(entry)!])) {
        const filled = create(given, entry.struct);
        for (const key of keys.filter((key) => valueAt(given, key.path) === undefined)) {
          // A key of a list's items says nothing where the list is empty (an operators file with none).
          const list = key.path.includes('[]') ? valueAt(filled, key.path.slice(0, key.path.indexOf('[]'))) : undefined;
          if (Array.isArray(list) && list.length === 0) continue;
          const value = valueAt(filled, key.path);
          // A key left out is filled in with its stated default, or not at all.
          if (key.default !== undefined) expect(value, key.path).toEqual(key.default);
          else expect(value, `${key.path} is filled in with no default stated`).toBeUndefined();
        }
      }
    });
  }

  it('fail when a default changes in the struct', () => {
    const Changed = object({ ...SurveyConfig.schema, votes_per_category: defaulted(integer(), 4) });
    const filled = create(MINIMAL_SURVEY, Changed);
    const stated = makeSchema(SURVEY).keys.find((key) => key.path === 'votes_per_category')!.default;
    expect(filled.votes_per_category).not.toEqual(stated);
  });
});

/** Every key whose struct is an enum, with the values its schema allows. */
function enumKeys(entry: EditorSchema): DescribedKey[] {
  return makeSchema(entry).keys.filter((key) => key.values);
}

/** The values a struct allows at a key path, read from superstruct's message for a value that is none of them. */
function structValues(entry: EditorSchema, path: string): string[] {
  const [error] = validate(withValue(MINIMAL.get(entry), path, '\u0000none'), entry.struct, { coerce: true });
  const message = error?.failures().find((failure) => failure.path.join('.') === steps(path).join('.'))?.message ?? '';
  const listed = /Expected one of `(.*)`, but received/.exec(message)?.[1];
  return listed ? JSON.parse(`[${listed}]`) : [];
}

describe('the enums', () => {
  it('are the structs’ own, key by key', () => {
    const keys = EDITOR_SCHEMAS.flatMap((entry) => enumKeys(entry).map((key) => ({ entry, key })));
    expect(keys.map(({ key }) => key.path)).toEqual(expect.arrayContaining(['verify', 'amend', 'layout[][].type', 'tally.publish.ties']));
    for (const { entry, key } of keys) expect(key.values, key.path).toEqual(structValues(entry, key.path));
  });

  it('hold every field type of the field table', () => {
    expect(enumKeys(SURVEY).find((key) => key.path === 'layout[][].type')!.values).toEqual(FIELD_TYPES);
  });
});

describe('the sample surveys', () => {
  const files = [...globSync('surveys/*/survey.yaml'), ...globSync('tests/api/fixtures/surveys/*/survey.yaml')].sort();

  it.each(files)('%s passes the survey schema', (file) => {
    const check = validators.get(SURVEY)!;
    expect(check(parse(readFileSync(file, 'utf8'))), JSON.stringify(check.errors)).toBe(true);
  });

  it('are all found', () => {
    expect(files.length).toBeGreaterThanOrEqual(8);
  });

  it('surveys/site.yaml passes the site schema', () => {
    const check = validators.get(SITE)!;
    expect(check(parse(readFileSync('surveys/site.yaml', 'utf8'))), JSON.stringify(check.errors)).toBe(true);
  });
});

/** A broken or sound survey an author might write, and whether the struct and the schema take it. */
const examples: Array<{ name: string; path: string; value: unknown; takes: boolean }> = [
  { name: 'an unknown key', path: 'vote_requirment', value: 2, takes: false },
  { name: 'an unknown key of a field', path: 'layout[][].lable', value: 'Email', takes: false },
  { name: 'an unknown key of the tally', path: 'tally.self_votes', value: {}, takes: false },
  { name: 'text where a number belongs', path: 'votes_per_category', value: 'three', takes: false },
  { name: 'too many votes per category', path: 'votes_per_category', value: 6, takes: false },
  { name: 'a number where a list belongs', path: 'rules', value: 3, takes: false },
  { name: 'an unknown field type', path: 'layout[][].type', value: 'phone', takes: false },
  { name: 'an unknown verification', path: 'verify', value: 'sms', takes: false },
  { name: 'an unknown tally rule', path: 'tally.subcategory_match.rule', value: 'warn', takes: false },
  { name: 'a missing project id', path: 'project_id', value: undefined, takes: false },
  { name: 'a select without options', path: 'layout[][].type', value: 'select', takes: false },
  { name: 'a nested field without subfields', path: 'layout[][].type', value: 'nested', takes: false },
  { name: 'subfields on a text field', path: 'layout[][].fields', value: [{ name: 'x', type: 'text' }], takes: false },
  { name: 'a field name with a space', path: 'layout[][].name', value: 'first name', takes: false },
  { name: 'a logo that is no address', path: 'publication_logo', value: 'logo.png', takes: false },
  { name: 'a bracket in a category', path: 'categories', value: { 'Medicine [2027]': ['Cardiology'] }, takes: false },
  { name: 'a category group without sub-categories', path: 'categories', value: { Medicine: [] }, takes: false },
  { name: 'a key twice in duplicates', path: 'tally.duplicates', value: ['email', 'email'], takes: false },
  { name: 'a nominee list of the wrong kind', path: 'nominees', value: 'nominees.xlsx', takes: false },
  { name: 'a sender that is no address', path: 'mail.from', value: 'Metro Health', takes: false },
  { name: 'a tile written as its title', path: 'faces', value: ['Cardiology', { title: 'Surgery', taken: true }], takes: true },
  { name: 'a tile with an empty title', path: 'faces', value: [''], takes: false },
  { name: 'a select with its options', path: 'layout', value: [[{ name: 'role', type: 'select', options: ['Attending', 'Resident'] }]], takes: true },
  { name: 'ads for a category group', path: 'categories', value: { Medicine: ['Cardiology'], ADS: { Medicine: ['/media/ad.svg'] } }, takes: true },
  {
    name: 'the prepopulation map in the file',
    path: 'prepopulation',
    value: { 'k3Qz9-wpX2mL': { email: 'ana@example.org', languages: ['English'] } },
    takes: true,
  },
  { name: 'a prepopulated value that is a number', path: 'prepopulation', value: { 'k3Qz9-wpX2mL': { years: 3 } }, takes: false },
  { name: 'a sender with a name', path: 'mail.from', value: 'Metro Health <votes@example.com>', takes: true },
  { name: 'weighted points', path: 'tally.points', value: [3, 2, 1], takes: true },
];

describe('broken and sound examples', () => {
  it.each(examples)('$name: the struct and the schema agree ($takes)', ({ path, value, takes }) => {
    const document = withValue(MINIMAL_SURVEY, path, value);
    expect(structTakes(SurveyConfig, document)).toBe(takes);
    expect(validators.get(SURVEY)!(document)).toBe(takes);
  });
});

/**
 * The checks a JSON Schema cannot make, by key path: there the schema may take a value the
 * struct refuses (the build still refuses it, naming the key), never the other way round.
 */
const LOOSER: Record<string, string> = {
  expiration_date: 'any text Date.parse reads is a date; a pattern would refuse some',
  'layout[][].validation.pattern': 'whether the text is a regular expression is known only by compiling it',
  time_zone: 'the time zones Intl knows are a list of hundreds, growing with each release',
};

/** Values to try at every key: of each kind, around each bound, of each pattern, and every enum's values. */
const PROBES: unknown[] = [
  ...[undefined, null, true, false, -1, 0, 1, 2, 3, 5, 6, 50, 51, 100, 101, 1.5, 2097152],
  ...['', ' ', 'text', 'a[b]', 'medical-license', '1st-name', 'first name', 'https://example.org/logo.png', '/media/x.svg', 'ftp://example.org', 'logo.png'],
  ...['2030-12-31', '2030-12-31T23:59:59Z', 'next spring', 'G-AB12CD34EF', 'G-1', '1234567890123456', '5123456', '12', '1234567890123456789012'],
  ...['votes@example.com', ' votes@example.com ', 'Metro Health <votes@example.com>', 'votes@example', 'nominees.csv', 'Nominees.JSONL', 'list.ndjson'],
  ...['.nominees.csv', 'nominees.txt', 'lists/nominees.csv', '^[A-Z]+$', '(', 'secret', 'email', 'license'],
  ...[
    [],
    [''],
    ['text'],
    ['text', 'text'],
    [1],
    [0],
    [3, 2, 1],
    [101],
    [1, 1, 1, 1, 1, 1],
    ['secret', 'email'],
    ['secret', 'secret'],
    ['medical-license'],
    ['bad name'],
  ],
  ...[[{ title: 'T' }], ['T'], [[]], [[{ name: 'email', type: 'email' }]], [{ name: 'sub', type: 'text' }], [{ name: 'sub', type: 'nested' }]],
  ...[{}, { title: 'T' }, { title: '' }, { sealed: true }, { receipt: true, from: 'a@b.co' }, { rule: 'exclude' }, { rule: 'flag', voter_field: 'city' }],
  ...[{ top: 0 }, { top: 3, ties: 'exclude' }, { required: true }, { pattern: '^x$', minLength: 2 }, { Medicine: ['Cardiology'] }, { 'A[b]': ['c'] }],
  ...[
    { G: [] },
    { G: [''] },
    { ADS: { G: ['/ad.svg'] }, G: ['S'] },
    { ADS: { G: ['ad.svg'] } },
    { s3cret: { email: 'a@b.co' } },
    { s3cret: { 'bad name': 'x' } },
  ],
];

describe('the schema and the struct, key by key', () => {
  for (const entry of EDITOR_SCHEMAS) {
    it(`agree on every value tried at every key of ${entry.yaml}`, () => {
      const check = validators.get(entry)!;
      const { keys } = makeSchema(entry);
      const values = [...PROBES, ...keys.flatMap((key) => key.values ?? [])];
      const paths = [...new Set([...keys.map((key) => key.path), ...Object.keys(entry.keys)])];
      const disagreements: string[] = [];
      let tried = 0;
      for (const path of paths) {
        for (const value of values) {
          const document = withValue(MINIMAL.get(entry), path, value);
          const struct = structTakes(entry.struct, document);
          const schema = check(document);
          tried++;
          if (struct === schema || (!struct && path in LOOSER)) continue;
          disagreements.push(
            `${path} = ${JSON.stringify(value)}: the struct ${struct ? 'takes' : 'refuses'} it, the schema ${schema ? 'takes' : 'refuses'} it`,
          );
        }
      }
      expect(disagreements).toEqual([]);
      expect(tried).toBeGreaterThan(paths.length * 50);
    });
  }

  it('would see a bound the table gets wrong', () => {
    const schema = structuredClone(makeSchema(SURVEY).schema) as { properties: Record<string, JsonSchema> };
    schema.properties.votes_per_category.maximum = 6;
    const document = withValue(MINIMAL_SURVEY, 'votes_per_category', 6);
    expect(compile(schema)(document)).not.toBe(structTakes(SurveyConfig, document));
  });

  it('are loose only where a schema cannot check: a date Date.parse refuses still passes the schema', () => {
    const document = withValue(MINIMAL_SURVEY, 'expiration_date', 'next spring');
    expect([structTakes(SurveyConfig, document), validators.get(SURVEY)!(document)]).toEqual([false, true]);
  });

  it('check the site settings too', () => {
    expect(structTakes(SiteConfig, { default_survey: 'x', provider_url: 'example.org' })).toBe(false);
    expect(validators.get(SITE)!({ default_survey: 'x', provider_url: 'example.org' })).toBe(false);
  });
});

/** The node of the schema at a key path, through the definitions it refers to. */
function nodeAt(schema: JsonSchema, path: string): JsonSchema {
  const resolve = (node: JsonSchema): JsonSchema =>
    typeof node.$ref === 'string' ? resolve((schema.definitions as Record<string, JsonSchema>)[node.$ref.replace('#/definitions/', '')]) : node;
  return steps(path).reduce<JsonSchema>((node, key) => {
    // A tile may be a title or an object: the branch that has keys, or items; a map's entries (`*`) are its additional properties.
    const here = [resolve(node), ...((resolve(node).anyOf as JsonSchema[] | undefined) ?? [])].find(
      (branch) => branch.items || branch.properties || branch.additionalProperties,
    )!;
    if (key === '*') return here.additionalProperties as JsonSchema;
    return typeof key === 'number' ? (here.items as JsonSchema) : (here.properties as Record<string, JsonSchema>)[key];
  }, schema);
}

describe('what an editor shows', () => {
  const schema = makeSchema(SURVEY).schema;

  it.each([
    ['verify', 'none'],
    ['amend', 'never'],
    ['tally.same_practice', 'count'],
  ])('%s: its meaning, its values with theirs, and its default', (path, fallback) => {
    const node = nodeAt(schema, path);
    expect(node.description).toMatch(/\w{4}/);
    expect(node.markdownDescription).toContain(`Default: \`${fallback}\``);
    expect(node.default).toBe(fallback);
    expect((node.enum as string[]).length).toBeGreaterThan(1);
    expect(node.enumDescriptions).toHaveLength((node.enum as string[]).length);
    expect((node.enumDescriptions as string[]).every((text) => text.length > 0)).toBe(true);
  });

  it('layout[][].type: its meaning and every field type with its own, subfields included', () => {
    const type = nodeAt(schema, 'layout[][].type');
    expect(type.description).toContain('what the field is');
    expect(type.enum).toEqual(FIELD_TYPES);
    expect((type.enumDescriptions as string[]).every((text) => text.length > 0)).toBe(true);
    expect(nodeAt(schema, 'layout[][].fields[].type')).toBe(type);
  });

  it('a default that is a rule, in the description', () => {
    expect(nodeAt(schema, 'social_title')).toMatchObject({ description: 'title when the link is shared. Default: the survey title.' });
    expect(nodeAt(schema, 'social_title').default).toBeUndefined();
  });

  it('every key with a meaning', () => {
    for (const key of makeSchema(SURVEY).keys) expect(nodeAt(schema, key.path).description, key.path).toBeTruthy();
  });
});
