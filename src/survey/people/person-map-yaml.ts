// A fast reader for the one shape a large prepopulation file has (`invite` writes it so): a map of
// keys, each to a map of one-line strings. For such a text it answers exactly what the yaml library
// answers, a hundred times faster (20,000 people: a blink instead of two seconds); for any other
// text it answers undefined, and the library reads it, reporting any error as it does.

/**
 * A plain scalar that the YAML core schema reads as the same string: a letter, digit or `_` first
 * (or `-`, `.` or `--` before one, as a base64url secret may begin), then only letters, marks, digits, spaces and `_.@+-',()/&`: no `:`, `#`,
 * quote, bracket or other indicator anywhere, so that it can be nothing but a scalar; no space last.
 */
const PLAIN = /^(?:[\p{L}\p{N}_]|[-.][\p{L}\p{N}_]|--[\p{L}\p{N}_])[\p{L}\p{M}\p{N}_.@+\-' ,()/&]*$/u;

/** What the YAML 1.2 core schema reads as null, a boolean or a number (the yaml library's own tests, joined). */
const NOT_A_STRING =
  /^(?:~|[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;

/** The inside of a quoted scalar that the quotes hold as it is: no quote or backslash, nothing unprintable. */
const VERBATIM = /^[^"'\\\p{Cc}\u0085\u2028\u2029\ufeff]*$/u;

/** The string a one-line scalar stands for, or undefined when it is not one this reader is sure of. */
function scalar(text: string): string | undefined {
  if (text.length > 1 && (text[0] === '"' || text[0] === "'") && text.at(-1) === text[0]) {
    const inside = text.slice(1, -1);
    return VERBATIM.test(inside) ? inside : undefined;
  }
  if (text.endsWith(' ') || !PLAIN.test(text) || NOT_A_STRING.test(text)) return undefined;
  return text;
}

/** A comment on a line of its own. */
const COMMENT = /^ *#/;

/**
 * The map a text of the shape `key:` then `  field: value` lines holds (comments and blank lines
 * between them allowed), exactly as the yaml library reads it; undefined for any text it is not sure
 * of (another indentation, a list, a key without fields, a repeated key, a value to resolve or
 * unescape…), which the library must then read.
 */
export function readPersonMapYaml(text: string): Record<string, Record<string, string>> | undefined {
  if (text.includes('\r') || text.includes('\t') || text.charCodeAt(0) === 0xfeff) return undefined;
  const map: Record<string, Record<string, string>> = {};
  let person: Record<string, string> | undefined;
  let fields = 0;
  for (const line of text.split('\n')) {
    if (line === '' || COMMENT.test(line)) continue;
    if (line.startsWith('  ')) {
      const colon = line.indexOf(': ', 2);
      if (!person || colon < 0) return undefined;
      const field = scalar(line.slice(2, colon));
      const value = scalar(line.slice(colon + 2));
      if (field === undefined || value === undefined || field === '__proto__' || Object.hasOwn(person, field)) return undefined;
      person[field] = value;
      fields++;
      continue;
    }
    // A key with no fields under it holds null, which the library reads (and the struct refuses).
    if (person && !fields) return undefined;
    const key = line.endsWith(':') ? scalar(line.slice(0, -1)) : undefined;
    if (key === undefined || key === '__proto__' || Object.hasOwn(map, key)) return undefined;
    map[key] = person = {};
    fields = 0;
  }
  if (person && !fields) return undefined;
  return map;
}

/** A one-line string as this reader reads it back: plain when it can be, else double-quoted (a JSON string is a YAML one). */
function written(text: string): string {
  return scalar(text) === text ? text : JSON.stringify(text);
}

/**
 * The text of a map of keys to maps of strings in the shape this reader reads, under `header`
 * (comment lines): what `invite` writes, in a blink where the yaml library's document would take
 * a minute for 100,000 people. Undefined when a value is not a one-line string, which the library
 * must then write.
 */
export function writePersonMapYaml(map: Readonly<Record<string, Readonly<Record<string, unknown>>>>, header: string): string | undefined {
  const lines = [header.trimEnd()];
  for (const [key, person] of Object.entries(map)) {
    const fields = Object.entries(person);
    if (!fields.length) return undefined;
    lines.push(`${written(key)}:`);
    for (const [field, value] of fields) {
      if (typeof value !== 'string' || /[\n\r\u0085\u2028\u2029]/.test(value)) return undefined;
      lines.push(`  ${written(field)}: ${written(value)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
