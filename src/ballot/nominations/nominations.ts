import { map } from 'nanostores';
import { parseSlotName } from '../../survey/ballots/ballot-keys.ts';
import { repeatOnBallot } from '../../survey/ballots/votes.ts';
import { m } from '../../i18n/messages.ts';

/** The voter's nominations: slot name (`nominations[group][sub-category][n]`) → nominee id (docs/spec.md, "Nominations"). */
export const $nominations = map<Record<string, string>>({});

/** The picked nominees' names by slot, so a slot restored from a draft shows who it holds. */
export const $nomineeNames = map<Record<string, string>>({});

/** What became of a pick: stored, or refused because the nominee already fills another slot of the sub-category. */
export type PickResult = { ok: true } | { ok: false; duplicateOf: string };

/** The other slot of the same sub-category that already holds this nominee, if any: the new pick goes last, after every other slot. */
function slotHolding(slot: string, nomineeId: string): string | undefined {
  const here = parseSlotName(slot);
  if (!here) return undefined;
  const votes = Object.entries($nominations.get()).flatMap(([other, id]) => {
    const there = other === slot ? undefined : parseSlotName(other);
    return there ? [{ ...there, name: other, nomineeId: id }] : [];
  });
  votes.push({ ...here, name: slot, nomineeId });
  const held = repeatOnBallot(votes, votes.length - 1);
  return held < 0 ? undefined : votes[held].name;
}

/**
 * Stores the nominee picked from the suggestions for a slot. A nominee already named in
 * another slot of the same sub-category is not stored twice: the new slot is cleared (docs/spec.md, "Nominations").
 */
export function pickNominee(slot: string, nomineeId: string, name?: string): PickResult {
  const duplicateOf = slotHolding(slot, nomineeId);
  if (duplicateOf) {
    clearNominee(slot);
    return { ok: false, duplicateOf };
  }
  $nominations.setKey(slot, nomineeId);
  if (name !== undefined) $nomineeNames.setKey(slot, name);
  return { ok: true };
}

/** Empties a slot: the voter changed or cleared its text. */
export function clearNominee(slot: string): void {
  const { [slot]: cleared, ...rest } = $nominations.get();
  if (cleared !== undefined) $nominations.set(rest);
  const { [slot]: name, ...names } = $nomineeNames.get();
  if (name !== undefined) $nomineeNames.set(names);
}

/** The placeholders of a sub-category's slots, in order (docs/spec.md, "Nominations": up to Fifth). */
export function slotPlaceholder(slot: number): string {
  return [m.nomination_slot_1, m.nomination_slot_2, m.nomination_slot_3, m.nomination_slot_4, m.nomination_slot_5][slot - 1]!();
}

/** Why a pick was refused: "Already your First Nomination for Cardiology.", the sub-category by the label it shows. */
export function duplicateNote(name: string, duplicateOf: string, subcategoryLabel?: string): string {
  const slot = parseSlotName(duplicateOf);
  const category = subcategoryLabel ?? slot?.subcategory ?? m.nomination_this_category();
  return m.nomination_already({ name, slot: slotPlaceholder(slot?.slot ?? 1), category });
}
