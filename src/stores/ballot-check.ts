import { ballotStruct, validateBallot, type BallotSurvey } from '../survey/ballot.struct.ts';
import type { Problem } from '../survey/errors.ts';
import type { ReservationKind } from '../survey/tiles.ts';
import { collectBallot } from './ballot.ts';

/**
 * Checks the ballot in the stores as the server will. Loaded on first need (a field left, or
 * a submit), so the rules' code stays out of the page's first load.
 */
export function checkBallot(survey: BallotSurvey, taken: Partial<Record<ReservationKind, string[]>>): Problem[] {
  return validateBallot(ballotStruct(survey, { taken }), collectBallot(survey));
}
