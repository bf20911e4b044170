import { stringify, type Options } from 'csv-stringify/sync';

/**
 * RFC 4180 as csv-stringify writes it: a cell quoted when it holds a comma, quote, CR or LF,
 * each line ended with CRLF. `escape_formulas` gives a text that begins like a formula (`=`, `+`,
 * `-`, `@`, tab, CR, or their full-width forms that Apple Numbers reads the same) a leading `'`,
 * so that opening the export in a spreadsheet cannot run what a voter typed (OWASP "CSV
 * injection"); a number is written as it is, a negative one included.
 */
const OPTIONS: Options = { record_delimiter: '\r\n', quote_record_delimiter: true, escape_formulas: true };

/** One CSV cell, quoted and escaped as in `csvLine`, without the line end. */
export function csvCell(value: string | number | null | undefined): string {
  return stringify([[value]], { ...OPTIONS, eof: false });
}

/** One CSV line, ended with CRLF as RFC 4180 has it. */
export function csvLine(values: ReadonlyArray<string | number | null | undefined>): string {
  return stringify([[...values]], OPTIONS);
}
