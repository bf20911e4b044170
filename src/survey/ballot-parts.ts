import type { FieldDef } from './field.struct.ts';
import { allFields, categoryGroups } from './layout.ts';
import { customReservationName, slotName } from './ballot-keys.ts';
import { isBallotFile, isBlank, textOf, type BallotFile, type BallotInput } from './ballot-input.ts';
import { WRITE_IN_KEY, type BallotSurvey } from './ballot.struct.ts';
import type { ReservationKind } from './tiles.ts';
import { categoryKey } from './ballot-keys.ts';

/** One answer to a layout field; a checkbox gives one per ticked option, in order. */
export interface AnswerPart {
  field: string;
  position: number;
  value: string;
}

/** One filled nomination slot. */
export interface NominationPart {
  group: string;
  subcategory: string;
  slot: number;
  nomineeId: string;
}

/** One write-in with a name. */
export interface WriteInPart {
  position: number;
  name: string;
  group: string;
  subcategory: string;
}

/** What the voter asked of one reservation section: a tile, or their own text. */
export interface ReservationPart {
  field: string;
  kind: ReservationKind;
  tile?: string;
  custom?: string;
}

/** One uploaded file, with the field it answers. */
export interface FilePart<F extends BallotFile = BallotFile> {
  field: string;
  file: F;
}

/** A checked ballot taken apart into what is stored. */
export interface BallotParts<F extends BallotFile = BallotFile> {
  answers: AnswerPart[];
  nominations: NominationPart[];
  writeIns: WriteInPart[];
  reservations: ReservationPart[];
  files: Array<FilePart<F>>;
}

const ANSWER_TYPES = new Set<FieldDef['type']>(['text', 'select', 'email', 'slider', 'textarea', 'radio', 'fancy-radio', 'checkbox']);

/** Takes a ballot that passed its struct apart: blank parts are left out, texts are trimmed. */
export function ballotParts<F extends BallotFile>(config: BallotSurvey, input: BallotInput): BallotParts<F> {
  const parts: BallotParts<F> = { answers: [], nominations: [], writeIns: [], reservations: [], files: [] };
  for (const field of allFields(config.layout)) {
    const value = input[field.name];
    if (ANSWER_TYPES.has(field.type)) {
      const values = (Array.isArray(value) ? value : [value]).map((item) => (typeof item === 'string' ? item.trim() : '')).filter(Boolean);
      values.forEach((text, position) => parts.answers.push({ field: field.name, position, value: text }));
      const other = textOf(input[`${field.name}[other-answer]`]);
      if (field.type === 'checkbox' && other) parts.answers.push({ field: `${field.name}[other-answer]`, position: 0, value: other });
    } else if (field.type === 'file' && isBallotFile(value) && !isBlank(value)) {
      parts.files.push({ field: field.name, file: value as F });
    } else if (field.type === 'faces' || field.type === 'asktheexpert') {
      const tile = textOf(value);
      const custom = textOf(input[customReservationName(field.name)]);
      if (tile) parts.reservations.push({ field: field.name, kind: field.type, tile });
      else if (custom) parts.reservations.push({ field: field.name, kind: field.type, custom });
    }
  }
  const keys = new Map<string, { group: string; subcategory: string }>();
  for (const { name: group, subcategories } of categoryGroups(config)) {
    for (const subcategory of subcategories) {
      keys.set(categoryKey(group, subcategory), { group, subcategory });
      for (let slot = 1; slot <= config.votes_per_category; slot++) {
        const nomineeId = textOf(input[slotName(group, subcategory, slot)]);
        if (nomineeId) parts.nominations.push({ group, subcategory, slot, nomineeId });
      }
    }
  }
  const indices = [...new Set(Object.keys(input).flatMap((key) => WRITE_IN_KEY.exec(key)?.[1] ?? []))].map(Number).sort((a, b) => a - b);
  for (const index of indices) {
    const name = textOf(input[`writeins[${index}][name]`]);
    const category = keys.get(textOf(input[`writeins[${index}][category]`]));
    if (name && category) parts.writeIns.push({ position: parts.writeIns.length, name, ...category });
  }
  return parts;
}

/** The vote count of SPEC.md §4: filled nomination slots plus write-ins with a name. */
export function voteCount(parts: Pick<BallotParts, 'nominations' | 'writeIns'>): number {
  return parts.nominations.length + parts.writeIns.length;
}
