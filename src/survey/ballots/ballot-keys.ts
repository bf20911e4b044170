/**
 * The names under which a ballot's parts travel in the multipart body of
 * `POST /api/survey`, shared by the browser that writes them and the server that reads them.
 *
 * - a layout field: its own name (`email`); a checkbox: one entry per ticked option under its
 *   name, and the text for 'Other' under `{name}[other-answer]`; a file field: the file
 * - a nomination slot: `nominations[{group}][{sub-category}][{slot}]` → nominee id, slot 1…votes_per_category
 *   (a form posted without JavaScript sends the text typed in the slot under the same name)
 * - a write-in: `writeins[{i}][name]` and `writeins[{i}][category]` (a category key), i from 0
 * - a reservation: `{field}` → the tile's slug, or `{field}[custom]` → the voter's own text
 * - the affirmation: `affirm` → `on`
 *
 * Every such name is built and read back here, nowhere else: the browser's store and islands,
 * the API and the operator's CLI all call these.
 */

/** The names a layout field may have: letters, digits, dashes and underscores, starting with a letter (no brackets, so no clash with the names below). */
export const FIELD_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** True for a name a layout field may have (FIELD_NAME_PATTERN). */
export function isFieldName(name: string): boolean {
  return FIELD_NAME_PATTERN.test(name);
}

/** The form-data name of one nomination slot (slot counts from 1). */
export function slotName(group: string, subcategory: string, slot: number): string {
  return `nominations[${group}][${subcategory}][${slot}]`;
}

/** Reads a slot name back into its parts, or undefined for any other name. */
export function parseSlotName(name: string): { group: string; subcategory: string; slot: number } | undefined {
  const match = /^nominations\[([^\]]+)\]\[([^\]]+)\]\[(\d+)\]$/.exec(name);
  return match ? { group: match[1], subcategory: match[2], slot: Number(match[3]) } : undefined;
}

/** The value that names a sub-category in a write-in's category select. */
export function categoryKey(group: string, subcategory: string): string {
  return `${group} / ${subcategory}`;
}

/** The form-data names of write-in number `index` (from 0). */
export function writeInNames(index: number): { name: string; category: string } {
  return { name: `writeins[${index}][name]`, category: `writeins[${index}][category]` };
}

/** A write-in's names, i below 1000: a ballot with more is refused long before this many. */
const WRITE_IN_NAME = /^writeins\[(\d{1,3})\]\[(name|category)\]$/;

/** Reads a write-in's name back into its number and part, or undefined for any other name. */
export function parseWriteInName(name: string): { index: number; part: 'name' | 'category' } | undefined {
  const match = WRITE_IN_NAME.exec(name);
  return match ? { index: Number(match[1]), part: match[2] as 'name' | 'category' } : undefined;
}

/** The numbers of the write-ins a set of form-data names holds, each once, in order. */
export function writeInIndices(names: Iterable<string>): number[] {
  const indices = new Set<number>();
  for (const name of names) {
    const index = parseWriteInName(name)?.index;
    if (index !== undefined) indices.add(index);
  }
  return [...indices].sort((a, b) => a - b);
}

/** The form-data name of a reservation field's custom text. */
export function customReservationName(field: string): string {
  return `${field}[custom]`;
}

/** The form-data name of the text that goes with a checkbox's ticked 'Other' option. */
export function otherAnswerName(field: string): string {
  return `${field}[other-answer]`;
}

/** The field whose 'Other' text a name carries, or undefined for any other name. */
export function parseOtherAnswerName(name: string): string | undefined {
  return fieldOfSuffixed(name, '[other-answer]');
}

function fieldOfSuffixed(name: string, suffix: string): string | undefined {
  const field = name.endsWith(suffix) ? name.slice(0, -suffix.length) : '';
  return isFieldName(field) ? field : undefined;
}

/** The layout field a name of its own or a suffixed one belongs to: what comes before the first `[` (field names hold none). */
export function fieldNameOf(name: string): string {
  const bracket = name.indexOf('[');
  return bracket < 0 ? name : name.slice(0, bracket);
}

/** The form-data name of the fill time the page sends: whole seconds from the form becoming usable to Submit. */
export const FILL_SECONDS_NAME = 'fill_seconds';

/** The most fill time a ballot records: a day; a longer time says no more about the voter. */
export const MAX_FILL_SECONDS = 86_400;

/** The form-data name of the affirmation checkbox. */
export const AFFIRM_NAME = 'affirm';

/** The header that makes a retried POST safe (IETF draft "The Idempotency-Key HTTP Header Field"). */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
