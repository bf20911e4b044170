import type { ReservationKind } from '../../survey/tiles.ts';
import { json, unknownSurvey } from '../http.ts';
import { findSurvey } from '../surveys.ts';
import { reservationLookup } from '../stats/survey-answers.ts';
import { requestTime } from '../request-hooks.ts';

/** GET /api/survey/{faces|experts}/{projectId}: the tiles other ballots hold, and the past participants or experts. */
export async function reservationReply(projectId: string | undefined, kind: ReservationKind, request: Request): Promise<Response> {
  const survey = findSurvey(projectId ?? '');
  if (!survey) return unknownSurvey();
  return json(200, await reservationLookup(survey, kind, requestTime(request)));
}
