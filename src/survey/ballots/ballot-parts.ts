import { allFields, ballotCategories, ballotSlots } from '../config/layout.ts';
import { customReservationName, otherAnswerName, writeInIndices, writeInNames } from './ballot-keys.ts';
import { isBallotFile, isBlank, textOf, type BallotFile, type BallotInput } from './ballot-input.ts';
import type { BallotSurvey } from './ballot.struct.ts';
import { fieldRow, isKind } from '../config/fields.ts';
import type { ReservationKind } from './tiles.ts';

/** One answer to a layout field; a checkbox gives one per ticked option, in order. */
interface AnswerPart {
  field: string;
  position: number;
  value: string;
}

/** One filled nomination slot. */
interface NominationPart {
  group: string;
  subcategory: string;
  slot: number;
  nomineeId: string;
}

/** One write-in with a name. */
interface WriteInPart {
  position: number;
  name: string;
  group: string;
  subcategory: string;
}

/** What the voter asked of one reservation section: a tile, or their own text. */
interface ReservationPart {
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

/** Takes a ballot that passed its struct apart: blank parts are left out, texts are trimmed. */
export function ballotParts<F extends BallotFile>(config: BallotSurvey, input: BallotInput): BallotParts<F> {
  const parts: BallotParts<F> = { answers: [], nominations: [], writeIns: [], reservations: [], files: [] };
  for (const field of allFields(config.layout)) {
    const value = input[field.name];
    if (isKind(field, 'answer')) {
      const values = (Array.isArray(value) ? value : [value]).map((item) => (typeof item === 'string' ? item.trim() : '')).filter(Boolean);
      values.forEach((text, position) => parts.answers.push({ field: field.name, position, value: text }));
      const other = textOf(input[otherAnswerName(field.name)]);
      if (fieldRow(field).value === 'choices' && other) parts.answers.push({ field: otherAnswerName(field.name), position: 0, value: other });
    } else if (isKind(field, 'file')) {
      if (isBallotFile(value) && !isBlank(value)) parts.files.push({ field: field.name, file: value as F });
    } else if (isKind(field, 'reservation')) {
      const tile = textOf(value);
      const custom = textOf(input[customReservationName(field.name)]);
      if (tile) parts.reservations.push({ field: field.name, kind: field.type, tile });
      else if (custom) parts.reservations.push({ field: field.name, kind: field.type, custom });
    }
  }
  for (const { group, subcategory, slot, name } of ballotSlots(config)) {
    const nomineeId = textOf(input[name]);
    if (nomineeId) parts.nominations.push({ group, subcategory, slot, nomineeId });
  }
  const categories = new Map(ballotCategories(config).map(({ key, group, subcategory }) => [key, { group, subcategory }]));
  for (const names of writeInIndices(Object.keys(input)).map(writeInNames)) {
    const name = textOf(input[names.name]);
    const category = categories.get(textOf(input[names.category]));
    if (name && category) parts.writeIns.push({ position: parts.writeIns.length, name, ...category });
  }
  return parts;
}
