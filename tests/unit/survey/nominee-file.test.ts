import { describe, expect, it } from 'vitest';
import { parseNominees } from '../../../src/survey/nominees/nominee-file.ts';
import { ConfigError } from '../../../src/survey/errors.ts';
import { isPlainNominee, Nominee } from '../../../src/survey/nominees/nominee.struct.ts';
import { validate } from 'superstruct';

function problems(file: string, text: string): string[] {
  try {
    parseNominees(file, text);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => `${p.line}:${p.column} ${p.path}: ${p.message}`);
    throw error;
  }
  return [];
}

describe('a nominee list', () => {
  it('reads CSV with quoted values, a BOM, CRLF and blank detail cells', () => {
    const text = '\uFEFFid,name,specialty,city,practice\r\nn1,"García, María",Cardiology,,"St. Agnes\' ""Heart"" Clinic"\r\n\r\nn2,Siobhán O\'Brien,,,\r\n';
    expect(parseNominees('list.csv', text)).toEqual([
      { id: 'n1', name: 'García, María', specialty: 'Cardiology', practice: 'St. Agnes\' "Heart" Clinic' },
      { id: 'n2', name: "Siobhán O'Brien" },
    ]);
  });

  it('reads JSON Lines, a numeric id as text', () => {
    const text = '{"id": 7, "name": "Zoë Ngữ", "city": "Lakeview"}\n\n{"id": "n8", "name": "Ann Lee"}\n';
    expect(parseNominees('list.jsonl', text)).toEqual([
      { id: '7', name: 'Zoë Ngữ', city: 'Lakeview' },
      { id: 'n8', name: 'Ann Lee' },
    ]);
  });

  it('takes column names in any case and order', () => {
    expect(parseNominees('list.csv', 'Name,ID\nAnn Lee,a1\n')).toEqual([{ id: 'a1', name: 'Ann Lee' }]);
  });

  // Each bad file, and the problem it must be reported with: line and column, then the column (or key) name, then what is wrong.
  const cases: Array<[string, string, string, RegExp]> = [
    ['an empty name', 'list.csv', 'id,name\nn1,Ann Lee\nn2,\n', /^3:4 name: is required/],
    ['a duplicate id', 'list.csv', 'id,name\nn1,Ann Lee\nn1,Bo Chen\n', /^3:1 id: "n1" is already the id of the nominee on line 2/],
    ['an id with a space', 'list.csv', 'id,name\nn 1,Ann Lee\n', /^2:1 id: expected an id of letters, digits/],
    [
      'an unknown column',
      'list.csv',
      'id,name,specality\nn1,Ann Lee,Cardiology\n',
      /^1:9 \(header\): "specality" is not a known column; the columns are id, name, specialty, city, practice/,
    ],
    ['no name column', 'list.csv', 'id,full_name\n', /^1:1 \(header\): needs a column named "name"/],
    ['too many values', 'list.csv', 'id,name\nn1,Lee, Ann\n', /^2:9 \(row\): has 3 values but the header names 2 columns/],
    ['an unclosed quote', 'list.csv', 'id,name\nn1,"Ann Lee\n', /^2:1 \(syntax\): is not valid CSV: Quote Not Closed/],
    ['no rows', 'list.csv', 'id,name\n', /^1:1 \(file\): holds no nominees$/],
    [
      'a line that is not JSON',
      'list.jsonl',
      '{"id":"n1","name":"Ann"}\n{"id":"n2", name: "Bo"}\n',
      /^2:13 \(syntax\): is not valid JSON: Expected double-quoted property name$/,
    ],
    ['a JSON line that is a list', 'list.jsonl', '["n1", "Ann"]\n', /^1:1 \(row\): expected one JSON object per line/],
    ['an unknown JSON key', 'list.jsonl', '{"id":"n1","name":"Ann","town":"Lakeview"}\n', /^1:25 town: is not a known key/],
  ];
  it.each(cases)('rejects %s, naming line and column', (_, file, text, expected) => {
    const found = problems(file, text);
    expect(
      found.some((problem) => expected.test(problem)),
      found.join('\n'),
    ).toBe(true);
  });

  it('names the file in the error', () => {
    expect(() => parseNominees('/surveys/x/nominees.csv', 'id,name\nn1,\n')).toThrow(
      /^\/surveys\/x\/nominees\.csv:2:4 {2}name {2}is required \(expected a text\)$/,
    );
  });
});

describe('the quick check of a nominee row', () => {
  // Values a row may hold, from CSV cells (strings, absent) and JSON Lines (anything).
  const IDS: unknown[] = ['n1', '7', 'a'.repeat(64), 'a'.repeat(65), '-n1', 'n 1', 'n/1', 'ñ1', '', 7, null, undefined, ['n1']];
  const NAMES: unknown[] = ['Ann Lee', ' Ann ', '  ', '', '\u00a0', 'Zoë', 0, null, undefined, { first: 'Ann' }];
  const DETAILS: unknown[] = [undefined, 'Cardiology', '', ' ', null, 3, true, ['x']];
  const KEYS = ['specialty', 'city', 'practice', 'license', 'Specialty', 'email', '__proto__', 'constructor'];

  it('says yes exactly where the struct does, and the struct gives back the same values', () => {
    let compared = 0;
    let yes = 0;
    for (const id of IDS)
      for (const name of NAMES)
        for (const [k, key] of KEYS.entries())
          for (const detail of DETAILS) {
            const values: Record<string, unknown> = { name, id };
            Object.defineProperty(values, key, { value: detail, enumerable: true, writable: true, configurable: true });
            if (k % 2) delete values.name;
            const [error, nominee] = validate({ ...values }, Nominee, { coerce: true });
            expect(isPlainNominee(values), JSON.stringify({ ...values, [key]: detail })).toBe(!error);
            if (!error) {
              expect(values).toEqual(nominee);
              yes++;
            }
            compared++;
          }
    // Both answers came up often enough for the comparison to mean something.
    expect(compared).toBeGreaterThan(4000);
    expect(yes).toBeGreaterThan(50);
  });
});
