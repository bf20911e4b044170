import { is, validate, type Context, type Struct } from 'superstruct';

/**
 * A superstruct struct made into a JSON Schema (draft-07), for editors that complete and check
 * YAML from one (yaml-language-server, VS Code's YAML extension): the same struct that validates
 * the file describes it, so the two cannot drift.
 *
 * The walk reads what superstruct keeps on a struct: its `type`, its `schema` (an object's keys,
 * an array's element, an enum's values) and what its `entries` yield (a record's key and value, a
 * lazy struct's keys). Whether a key may be left out it learns by offering the struct nothing:
 * `optional` takes it, `defaulted` fills it in. What a struct hides in closures (a default's
 * value, the bounds of `size` and `min`, a union's members, a `dynamic` struct's shape, what a
 * `coerce` turns into the struct) comes from a table of key meanings written beside the structs,
 * which also gives every key its meaning.
 */

/** A JSON Schema node, as plain data. */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * What the table says of one key path: `tally.self_vote.rule`; `faces[]` for an array's items,
 * `faces[].title` for a key of them; `categories.*` for a record's values.
 */
interface KeyDoc {
  /** What the key means, in the words of the people who write the file. */
  meaning: string;
  /** The value the struct's `defaulted` fills in when the key is left out (checked against superstruct's `create`). */
  default?: unknown;
  /** When the key is left out and no value is filled in, what applies instead, in words ("the survey title"). */
  otherwise?: string;
  /** What each value of an enum means, for an editor's completion list. */
  values?: Record<string, string>;
  /**
   * What the struct cannot show: keywords laid over the schema read from the struct (`minimum`,
   * `pattern`…), or a function of that schema that returns the whole node (a union's members, a
   * coercion, a dynamic shape).
   */
  schema?: JsonSchema | ((derived: JsonSchema) => JsonSchema);
  /** A section of the guides that says more, as a Markdown link from docs/surveys.md; the reference shows it, an editor does not. */
  guide?: string;
  /** Makes the node a named definition, which a `lazy` struct of the same keys (a nested field's subfields) refers to. */
  definition?: string;
}

/** The table of one file's keys: key path → what it says. */
export type KeyDocs = Record<string, KeyDoc>;

/** One key of the file as the reference lists it, in the struct's order, parents before their keys. */
export interface DescribedKey {
  path: string;
  meaning: string;
  /** `required`: the file must give it; `defaulted`: left out, the struct fills in `default`; `optional`: left out, it is absent. */
  presence: Presence;
  default?: unknown;
  otherwise?: string;
  /** The values of an enum, in the struct's order. */
  values?: readonly unknown[];
  guide?: string;
}

/** The schema of a struct, its keys in order, and what the table and the struct disagree on (nothing, when all is well). */
export interface StructSchema {
  schema: JsonSchema;
  keys: DescribedKey[];
  problems: string[];
}

type Presence = 'required' | 'defaulted' | 'optional';

// biome-ignore lint/suspicious/noExplicitAny: any struct at all is walked, whatever its type.
type AnyStruct = Struct<any, any>;

const CONTEXT: Context = { branch: [], path: [] };

/** Whether a key holding this struct may be left out, and whether the struct then fills it in. */
function presenceOf(struct: AnyStruct): Presence {
  if (is(undefined, struct)) return 'optional';
  return validate(undefined, struct, { coerce: true })[0] ? 'required' : 'defaulted';
}

/** The keys an object-like struct checks, each with its struct, as its `entries` yield them for an empty object. */
function keysOf(struct: AnyStruct): Array<[string, AnyStruct]> {
  return [...struct.entries({}, CONTEXT)].map(([key, , value]) => [String(key), value as AnyStruct]);
}

/** True when two lists of keys hold the same keys with the very same structs. */
function sameKeys(a: Array<[string, AnyStruct]>, b: Array<[string, AnyStruct]>): boolean {
  return a.length > 0 && a.length === b.length && a.every(([key, struct], i) => b[i][0] === key && b[i][1] === struct);
}

/** A value as YAML writes it inline: `3`, `form`, `[secret, email]`, `{ sealed: false }`. */
export function inlineYaml(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inlineYaml).join(', ')}]`;
  if (value && typeof value === 'object') {
    const pairs = Object.entries(value).map(([key, item]) => `${key}: ${inlineYaml(item)}`);
    return pairs.length ? `{ ${pairs.join(', ')} }` : '{}';
  }
  return typeof value === 'string' && /^[\w./@-]+$/.test(value) ? value : JSON.stringify(value);
}

/** The JSON Schema of `struct`, each key described by `docs`; `title` and `description` head the document. */
export function structSchema(struct: AnyStruct, docs: KeyDocs, heading: { title: string; description: string }): StructSchema {
  const problems: string[] = [];
  const keys: DescribedKey[] = [];
  const used = new Set<string>();
  const definitions: Record<string, JsonSchema> = {};
  const named: Array<{ name: string; keys: Array<[string, AnyStruct]> }> = [];

  /** The schema superstruct's own record of the struct gives, before the table has its say; undefined when it keeps the shape to itself. */
  const derive = (node: AnyStruct, path: string): JsonSchema | undefined => {
    switch (node.type) {
      case 'object':
      case 'type':
        return objectSchema(node, path);
      case 'array':
        return node.schema ? { type: 'array', items: walk(node.schema as AnyStruct, `${path}[]`) } : { type: 'array' };
      case 'enums': {
        const values = Object.values(node.schema as Record<string, unknown>);
        return values.every((value) => typeof value === 'string') ? { type: 'string', enum: values } : { enum: values };
      }
      case 'literal':
        return { const: node.schema };
      case 'string':
      case 'number':
      case 'integer':
      case 'boolean':
        return { type: node.type };
      case 'record': {
        // A record yields each key twice: the key with the key's struct, then its value with the value's.
        const [, [, , value]] = [...node.entries({ key: null }, CONTEXT)];
        return { type: 'object', additionalProperties: walk(value as AnyStruct, `${path}.*`) };
      }
      case 'lazy': {
        const definition = named.find((candidate) => sameKeys(candidate.keys, keysOf(node)));
        return definition && { $ref: `#/definitions/${definition.name}` };
      }
      case 'any':
      case 'unknown':
        return {};
      default:
        // A union, a dynamic struct, an unknown kind: superstruct keeps their shape in closures.
        return undefined;
    }
  };

  const objectSchema = (node: AnyStruct, path: string): JsonSchema => {
    if (!node.schema) return { type: 'object' };
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [key, value] of Object.entries(node.schema as Record<string, AnyStruct>)) {
      const keyPath = path ? `${path}.${key}` : key;
      const presence = presenceOf(value);
      const row: DescribedKey = { path: keyPath, meaning: docs[keyPath]?.meaning ?? '', presence, guide: docs[keyPath]?.guide };
      keys.push(row);
      if (!docs[keyPath]) problems.push(`${keyPath}: no meaning in the table`);
      properties[key] = walk(value, keyPath, row);
      if (presence === 'required') required.push(key);
    }
    return {
      type: 'object',
      properties,
      ...(required.length ? { required } : {}),
      // superstruct's object refuses a key it does not name; `type` lets one pass.
      ...(node.type === 'object' ? { additionalProperties: false } : {}),
    };
  };

  /** The schema of one node: the struct's shape, the table's additions, the meaning and the default. */
  const walk = (node: AnyStruct, path: string, row?: DescribedKey): JsonSchema => {
    const doc = docs[path];
    if (doc) used.add(path);
    if (doc?.definition) named.push({ name: doc.definition, keys: keysOf(node) });
    const derived = derive(node, path);
    if (derived === undefined && !doc?.schema) problems.push(`${path}: a ${node.type} struct keeps its shape to itself: give its schema in the table`);
    const shape = typeof doc?.schema === 'function' ? doc.schema(derived ?? {}) : { ...derived, ...doc?.schema };
    const schema = doc ? { ...describe(doc, path, row?.presence, shape), ...shape } : shape;
    if (row && doc) {
      if (schema.default !== undefined) row.default = schema.default;
      if (doc.otherwise) row.otherwise = doc.otherwise;
      if (Array.isArray(schema.enum)) row.values = schema.enum;
    }
    if (!doc?.definition) return schema;
    definitions[doc.definition] = schema;
    return { $ref: `#/definitions/${doc.definition}` };
  };

  /** The keywords an editor shows: the meaning, the default (a value, or in words), each enum value's meaning. */
  const describe = (doc: KeyDoc, path: string, presence: Presence | undefined, shape: JsonSchema): JsonSchema => {
    let fallback = doc.default;
    if (presence === 'defaulted' && fallback === undefined && shape.type === 'object') fallback = defaultsOf(shape);
    if (presence === 'defaulted' && fallback === undefined) problems.push(`${path}: the struct fills in a default the table does not state`);
    if (presence !== 'defaulted' && doc.default !== undefined) problems.push(`${path}: the table states a default the struct does not fill in`);
    if (doc.default !== undefined && doc.otherwise) problems.push(`${path}: the table gives both a default value and one in words`);
    const markdown = [doc.meaning];
    if (fallback !== undefined) markdown.push(`Default: \`${inlineYaml(fallback)}\`.`);
    if (doc.otherwise) markdown.push(`Default: ${doc.otherwise}.`);
    const described: JsonSchema = {
      description: doc.otherwise ? `${doc.meaning}. Default: ${doc.otherwise}.` : doc.meaning,
      markdownDescription: markdown.join('\n\n'),
    };
    if (fallback !== undefined) described.default = fallback;
    if (doc.values) {
      const values = Array.isArray(shape.enum) ? shape.enum.map(String) : [];
      const given = Object.keys(doc.values);
      if (given.length !== values.length || !values.every((value) => given.includes(value)))
        problems.push(`${path}: the table's values (${given.join(', ')}) are not the struct's (${values.join(', ')})`);
      described.enumDescriptions = values.map((value) => doc.values![value] ?? '');
      described.markdownEnumDescriptions = described.enumDescriptions;
    }
    return described;
  };

  const root = walk(struct, '');
  for (const path of Object.keys(docs)) if (!used.has(path)) problems.push(`${path}: the table describes a key the struct does not have`);
  const schema: JsonSchema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: heading.title,
    description: heading.description,
    ...root,
    ...(Object.keys(definitions).length ? { definitions } : {}),
  };
  return { schema, keys, problems };
}

/** An object's default made of its keys' defaults, or undefined when none of them has one. */
function defaultsOf(shape: JsonSchema): Record<string, unknown> | undefined {
  const properties = Object.entries((shape.properties ?? {}) as Record<string, JsonSchema>).filter(([, property]) => property.default !== undefined);
  return properties.length ? Object.fromEntries(properties.map(([key, property]) => [key, property.default])) : undefined;
}
