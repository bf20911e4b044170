import type { BallotSurvey } from '../survey/ballot.struct.ts';
import type { BallotInput } from '../survey/ballot-input.ts';
import { AFFIRM_NAME, customReservationName, otherAnswerName, writeInNames } from '../survey/ballot-keys.ts';
import { fieldRow, isKind } from '../survey/fields.ts';
import { allFields } from '../survey/layout.ts';
import { $affirmed } from './fields/answers.ts';
import { $answers, $files, type Answer } from './fields/answers.ts';
import { $nominations, $nomineeNames } from './nominations/nominations.ts';
import { $reservations } from './reservations/reservations.ts';
import { $attempted, $touched } from './validation.ts';
import { $writeIns } from './writeins/writeins.ts';

/**
 * The ballot as it will be sent, gathered from every store under its form-data name
 * (src/survey/ballot-keys.ts): answers, files, nominations, write-ins, reservations, affirmation.
 */
export function collectBallot(survey: Pick<BallotSurvey, 'layout'>): BallotInput {
  const input: BallotInput = {};
  const answers = $answers.get();
  const files = $files.get();
  for (const field of allFields(survey.layout)) {
    if (isKind(field, 'file')) {
      const file = files[field.name];
      if (file) input[field.name] = file;
    } else if (isKind(field, 'reservation')) {
      const reservation = $reservations.get()[field.name];
      if (reservation?.tile) input[field.name] = reservation.tile;
      if (reservation?.custom?.trim()) input[customReservationName(field.name)] = reservation.custom.trim();
    } else if (isKind(field, 'answer') && answers[field.name] !== undefined) {
      input[field.name] = answers[field.name];
      const other = answers[otherAnswerName(field.name)];
      if (fieldRow(field).value === 'choices' && other !== undefined && [answers[field.name]].flat().includes('Other'))
        input[otherAnswerName(field.name)] = other;
    } else if (isKind(field, 'answer') && fieldRow(field).positional && field.options?.length) {
      // A slider not yet moved shows its first option: that is its answer.
      input[field.name] = field.options[0];
    }
  }
  for (const [slot, nomineeId] of Object.entries($nominations.get())) if (nomineeId) input[slot] = nomineeId;
  $writeIns.get().forEach((row, index) => {
    const names = writeInNames(index);
    input[names.name] = row.name;
    input[names.category] = row.category;
  });
  if ($affirmed.get()) input[AFFIRM_NAME] = 'on';
  return input;
}

/** The ballot as multipart entries: one per value, a checkbox's options as repeated names. */
export function ballotEntries(input: BallotInput): Array<[string, string | File]> {
  return Object.entries(input).flatMap(([name, value]) => [value].flat().map((part) => [name, part as string | File] as [string, string | File]));
}

/**
 * The error-reporting user of docs/spec.md, "Sending": the ballot's key as id (never the personal secret,
 * which opens the ballot), the first email field, and the name fields joined in layout order.
 */
export function voterOf(input: BallotInput, survey: Pick<BallotSurvey, 'layout'>, key: string): { id: string; email?: string; name?: string } {
  const fields = allFields(survey.layout);
  const text = (name: string) => (typeof input[name] === 'string' ? (input[name] as string).trim() : '');
  const email = fields.find((field) => fieldRow(field).email);
  const name = fields
    .filter((field) => field.type === 'text' && /(^|-)name($|-)/.test(field.name))
    .map((field) => text(field.name))
    .filter(Boolean)
    .join(' ');
  return { id: key, email: (email && text(email.name)) || undefined, name: name || undefined };
}

/** Empties the whole ballot, as a fresh page shows it: after a submit, or when the voter clears their answers. */
export function resetBallot(prefill: Record<string, Answer> = {}): void {
  $answers.set({ ...prefill });
  $files.set({});
  $nominations.set({});
  $nomineeNames.set({});
  $writeIns.set([]);
  $reservations.set({});
  $affirmed.set(false);
  $touched.set({});
  $attempted.set(false);
}
