import type { FieldDef } from '../config/field.struct.ts';
import type { BallotInput } from './ballot-input.ts';
import type { PersonValues } from '../config/config.struct.ts';
import { allFields } from '../config/layout.ts';

/** True when a field shows a value the voter may not change: disabled, or prepopulated for this person. */
export function isReadOnly(field: Pick<FieldDef, 'name' | 'disabled' | 'prepopulated'>, person: PersonValues | undefined): boolean {
  return Boolean(field.disabled || (field.prepopulated && person?.[field.name] !== undefined));
}

/**
 * The ballot with every read-only field holding what the survey gave the person, whatever
 * was sent: a read-only value cannot be changed by editing the page.
 */
export function withReadOnlyValues(layout: FieldDef[][], person: PersonValues | undefined, ballot: BallotInput): BallotInput {
  const result: BallotInput = { ...ballot };
  for (const field of allFields(layout)) {
    if (!isReadOnly(field, person)) continue;
    const value = person?.[field.name];
    if (value === undefined) delete result[field.name];
    else result[field.name] = value;
  }
  return result;
}
