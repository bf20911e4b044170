import type { FieldDef } from './field.struct.ts';
import { fieldRow } from './fields.ts';

/** A run of the layout that one island renders: plain field rows, the nominations, or a reservation. */
export type Segment = { kind: 'fields'; rows: FieldDef[][] } | { kind: 'nomination'; field: FieldDef } | { kind: 'reservation'; field: FieldDef };

/**
 * Splits a layout into the runs its islands render, in order: nomination and reservation
 * fields stand alone; the rows between them are grouped.
 */
export function layoutSegments(layout: FieldDef[][]): Segment[] {
  const segments: Segment[] = [];
  for (const row of layout) {
    let plain: FieldDef[] = [];
    const flush = () => {
      if (!plain.length) return;
      const last = segments.at(-1);
      if (last?.kind === 'fields') last.rows.push(plain);
      else segments.push({ kind: 'fields', rows: [plain] });
      plain = [];
    };
    for (const field of row) {
      const { kind } = fieldRow(field);
      if (kind === 'nomination') {
        flush();
        segments.push({ kind: 'nomination', field });
      } else if (kind === 'reservation') {
        flush();
        segments.push({ kind: 'reservation', field });
      } else {
        plain.push(field);
      }
    }
    flush();
  }
  return segments;
}
