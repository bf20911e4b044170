import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { readPersonMapYaml } from '../../../src/survey/people/person-map-yaml.ts';

// The fast reader of prepopulation files must answer what the yaml library answers, or nothing.

/** The yaml library's reading of a text, or 'error' when it refuses it. */
function library(text: string): unknown {
  try {
    return parse(text);
  } catch {
    return 'error';
  }
}

/** Asserts the fast reader agrees with the library, and says whether it read the text itself. */
function agrees(text: string): boolean {
  const fast = readPersonMapYaml(text);
  if (fast !== undefined) expect(fast, text).toEqual(library(text) ?? {});
  return fast !== undefined;
}

describe('readPersonMapYaml', () => {
  it.each([
    [
      'invite’s shape, comments and blank lines',
      '# Personal links\nk7Qm2RzX4pWv:\n  name-first: Evelyn\n  email: e.c@northgate.example\n\n# more\nTn8Vb3LsQ9dA:\n  name: Rajesh Ó Súilleabháin-Smith\n',
    ],
    ['secrets that begin with a dash, two dashes, an underscore or a digit', '-Ab3:\n  a: x\n--Cd4:\n  a: y\n_Ef5:\n  a: z\n4vJX:\n  a: w\n'],
    [
      'quoted values, as stringify writes digits and words the core schema would read otherwise',
      'k7Qm2RzX4pWv:\n  medical-license: "418203"\n  note: \'true\'\n  title: "Dr: Smith"\n',
    ],
    ['an apostrophe, commas, brackets and an ampersand inside a value', "k7Qm2RzX4pWv:\n  name: O'Brien, Anne (MD) & co/op\n"],
    ['an empty file', ''],
    ['comments only', '# nothing yet\n'],
  ])('reads %s itself, as the library does', (_name, text) => {
    expect(agrees(text)).toBe(true);
  });

  it.each([
    ['a number', 'k7Qm2RzX4pWv:\n  license: 418203\n'],
    ['a negative number, a float, an exponent, hex, octal', 'k:\n  a: -12\n  b: 1.5\n  c: 1e5\n  d: 0x1F\n  e: 0o17\n'],
    ['a key the core schema reads as a number', '0123:\n  a: x\n'],
    ['booleans and nulls', 'k:\n  a: true\n  b: ~\n  c: null\n'],
    ['.inf and .nan', 'k:\n  a: .inf\n  b: .NaN\n'],
    ['a list', 'k:\n  tags:\n    - a\n    - b\n'],
    ['a key without fields', 'k:\nj:\n  a: x\n'],
    ['a field without a value', 'k:\n  a:\n'],
    ['a repeated key', 'k:\n  a: x\nk:\n  a: y\n'],
    ['a repeated field', 'k:\n  a: x\n  a: y\n'],
    ['__proto__', '__proto__:\n  a: x\n'],
    ['a comment after a value', 'k:\n  a: x # note\n'],
    ['a value with ": "', 'k:\n  a: b: c\n'],
    ['an escape in double quotes', 'k:\n  a: "x\\ty"\n'],
    ['two quotes in single quotes', "k:\n  a: 'O''Brien'\n"],
    ['an anchor and an alias', 'k: &p\n  a: x\nj: *p\n'],
    ['a flow map', 'k: { a: x }\n'],
    ['four spaces', 'k:\n    a: x\n'],
    ['a value folded over two lines', 'k:\n  a: one\n    two\n'],
    ['CRLF line ends', 'k:\r\n  a: x\r\n'],
    ['a tab', 'k:\n  a:\tx\n'],
    ['a document marker', '---\nk:\n  a: x\n'],
    ['a tag', 'k:\n  a: !!str 12\n'],
    ['a scalar at the top', 'just text\n'],
  ])('leaves %s to the library', (_name, text) => {
    expect(readPersonMapYaml(text)).toBeUndefined();
  });

  it('agrees with the library on thousands of generated files, and reads most rosters itself', () => {
    // A small deterministic generator: every run draws the same texts.
    let seed = 20261126;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
    const first = [...'abcXYZ019_Éé漢'];
    const safe = [...first, ...".@+-' ,()/&"];
    const risky = [': ', ' #', ':', '#', '"', "'", '!', '*', '&', '%', '?', '[', ']', '{', '}', '|', '>', '~', '`', '\\', '\t', '- ', '--- ', ' '];
    const keywords = [
      'true',
      'False',
      'null',
      '~',
      '12',
      '-3',
      '1.5',
      '.5',
      '1e3',
      '0x1A',
      '0o7',
      '.inf',
      '.NaN',
      '-',
      '--',
      '---',
      '...',
      "'q'",
      '"q"',
      '""',
      '',
    ];
    const scalar = () => {
      if (next() < 0.02) return pick(keywords);
      const chars = [pick(first), ...Array.from({ length: Math.floor(next() * 8) }, () => pick(safe)), pick(first)];
      if (next() < 0.03) chars.splice(Math.floor(next() * (chars.length + 1)), 0, pick(risky));
      const text = chars.join('');
      if (next() > 0.1) return text;
      // Quoted, now and then with an escape inside (or a quote mark that ends it early).
      const middle = next() < 0.5 ? pick(['\\t', '\\"', '\\\\', "''", '"', "'"]) : '';
      return `${pick(['"', "'"])}${text}${middle}${text}${pick(['"', "'"])}`;
    };
    let generated = 0;
    for (let n = 0; n < 5000; n++) {
      const lines: string[] = [];
      for (let p = 0; p < 2; p++) {
        lines.push(`${scalar()}:`);
        for (let f = 0; f < 2; f++) lines.push(`  ${scalar()}: ${scalar()}`);
      }
      if (agrees(`${lines.join('\n')}\n`)) generated++;
    }
    // Enough of them read by the fast reader for the agreement to mean something.
    expect(generated).toBeGreaterThan(1000);
    let readItself = 0;
    // Rosters as invite writes them (through the library's own stringify): base64url secrets,
    // names, addresses and licence numbers, some all digits.
    const base64url = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let n = 0; n < 200; n++) {
      const map: Record<string, Record<string, string>> = {};
      for (let p = 0; p < 20; p++) {
        const secret = Array.from({ length: 16 }, () => pick([...base64url])).join('');
        map[secret] = {
          'name-first': pick(['Ann', 'José', 'Mary-Kate', "D'Arcy", 'Zoë']),
          email: `person${n}.${p}@clinic.example`,
          'medical-license': pick(['418203', 'MD-418203', '0012']),
        };
      }
      if (agrees(stringify(map))) readItself++;
    }
    expect(readItself).toBeGreaterThan(190);
  });

  it("reads the sample surveys' prepopulation files itself", () => {
    const surveys = path.resolve(import.meta.dirname, '../../../surveys');
    const files = readdirSync(surveys)
      .map((slug) => path.join(surveys, slug, 'prepopulation.yaml'))
      .filter((file) => existsSync(file));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(agrees(readFileSync(file, 'utf8')), file).toBe(true);
  });
});
