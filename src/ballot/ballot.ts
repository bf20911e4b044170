import type { BallotSurvey } from '../survey/ballots/ballot.struct.ts';
import { textOf, type BallotInput } from '../survey/ballots/ballot-input.ts';
import { AFFIRM_NAME, customReservationName, otherAnswerName, writeInNames } from '../survey/ballots/ballot-keys.ts';
import { fieldRow, isKind } from '../survey/config/fields.ts';
import { allFields } from '../survey/config/layout.ts';
import { voterAnswers, voterFields, type VoterSurvey } from '../survey/people/voter.ts';
import { $affirmed } from './fields/answers.ts';
import { $answers, $files, type Answer } from './fields/answers.ts';
import { $nominations, $nomineeNames } from './nominations/nominations.ts';
import { $reservations } from './reservations/reservations.ts';
import { $attempted, $touched } from './validation.ts';
import { $writeIns } from './writeins/writeins.ts';

// The ballot as a whole, one level above the topic stores it reads and empties, and beneath the page's
// store (store.ts): the lazy ballot rules and the drafts and submit code import it, so it imports
// none of them.

/**
 * The ballot as it will be sent, gathered from every store under its form-data name
 * (src/survey/ballots/ballot-keys.ts): answers, files, nominations, write-ins, reservations, affirmation.
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
 * which opens the ballot), and the voter's email and name as the tally reads them (voterAnswers).
 */
export function userOf(input: BallotInput, survey: VoterSurvey, key: string): { id: string; email?: string; name?: string } {
  const voter = voterAnswers(voterFields(survey), (name) => textOf(input[name]));
  return { id: key, email: voter.email || undefined, name: voter.name || undefined };
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
