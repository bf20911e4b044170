import { parseSlotName } from '../../survey/ballot-keys.ts';

/** The placeholders of a sub-category's slots, in order (docs/spec.md, "Nominations": up to Fifth). */
export const SLOT_PLACEHOLDERS = ['First Nomination', 'Second Nomination', 'Third Nomination', 'Fourth Nomination', 'Fifth Nomination'];

/** Why a pick was refused: "Already your First Nomination for Cardiology." */
export function duplicateNote(name: string, duplicateOf: string): string {
  const slot = parseSlotName(duplicateOf);
  return `${name} is already your ${SLOT_PLACEHOLDERS[(slot?.slot ?? 1) - 1]} for ${slot?.subcategory ?? 'this category'}.`;
}

/** A DOM id made of a slot name. */
export function slotId(slot: string): string {
  return `nomination-${slot
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/-+$/, '')
    .toLowerCase()}`;
}
