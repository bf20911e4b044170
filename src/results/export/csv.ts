import { stringify } from 'csv-stringify/sync';

/**
 * Every CSV the product writes: RFC 4180 as csv-stringify writes it with `record_delimiter:
 * '\r\n'`, `quote_record_delimiter` and `escape_formulas`. A cell is quoted when it holds a
 * comma, quote, CR or LF, and each line ends with CRLF. A text that begins like a formula (`=`,
 * `+`, `-`, `@`, tab, CR, or their full-width forms that Apple Numbers reads the same) gets a
 * leading `'`, so that opening the export in a spreadsheet cannot run what a voter typed (OWASP
 * "CSV injection"); a number is written as it is, a negative one included. A plain cell, one
 * csv-stringify would write as it is, is written directly; csv-stringify writes every other:
 * a million-line export would otherwise spend most of its time in its per-cell option handling.
 */
const OPTIONS = { record_delimiter: '\r\n', quote_record_delimiter: true, escape_formulas: true } as const;

/** A cell's text needs quotes when it holds one of these. */
const NEEDS_QUOTES = /[",\r\n]/;

/** True when a text's first character would make a spreadsheet read it as a formula. */
function formulaLike(text: string): boolean {
  switch (text.charCodeAt(0)) {
    case 0x3d: // =
    case 0x2b: // +
    case 0x2d: // -
    case 0x40: // @
    case 0x09: // tab
    case 0x0d: // CR
    case 0xff1d: // full-width =
    case 0xff0b: // full-width +
    case 0xff0d: // full-width -
    case 0xff20: // full-width @
      return true;
    default:
      return false;
  }
}

/** One CSV cell, quoted and escaped as in `csvLine`, without the line end. */
function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'number') return String(value);
  if (!NEEDS_QUOTES.test(value) && !formulaLike(value)) return value;
  return stringify([[value]], OPTIONS).slice(0, -2);
}

/** One CSV line, ended with CRLF as RFC 4180 has it. */
export function csvLine(values: ReadonlyArray<string | number | null | undefined>): string {
  let line = '';
  for (let i = 0; i < values.length; i++) line += i === 0 ? csvCell(values[i]) : `,${csvCell(values[i])}`;
  return `${line}\r\n`;
}
