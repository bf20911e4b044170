import { validate } from 'superstruct';
import { ballotStruct, type BallotSurvey } from '../survey/ballots/ballot.struct.ts';
import { toCodedProblems, type CodedProblem } from '../survey/errors.ts';
import type { ReservationKind } from '../survey/ballots/tiles.ts';
import { collectBallot } from './ballot.ts';

type Taken = Partial<Record<ReservationKind, string[]>>;

let cached: { survey: BallotSurvey; taken: Taken; struct: ReturnType<typeof ballotStruct> } | undefined;

/**
 * Checks the ballot in the stores as the server will. Loaded on first need (a field left, or
 * a submit: loadChecks in store.ts), so the rules' code stays out of the page's first load. The struct is built once
 * per survey and taken list, not on every field the voter leaves.
 */
export function checkBallot(survey: BallotSurvey, taken: Taken): CodedProblem[] {
  if (cached?.survey !== survey || cached.taken !== taken) cached = { survey, taken, struct: ballotStruct(survey, { taken }) };
  const [error] = validate(collectBallot(survey), cached.struct);
  return error ? toCodedProblems(error) : [];
}
