import type { ReservationLookup } from '../../survey/api/api-replies.ts';
import { confirmedFor, configTakenSlugs, type ReservationKind } from '../../survey/ballots/tiles.ts';
import { database } from '../db/database.ts';
import { claimedTiles } from './tile-claims.repository.ts';
import { confirmedLabels } from './decisions.repository.ts';
import { json, unknownSurvey } from '../http.ts';
import { findSurvey, type ServerSurvey } from '../surveys.ts';
import { requestTime } from '../request-hooks.ts';
import { requestLanguage } from '../language.ts';
import { localizeSurvey } from '../../survey/config/translations.ts';

/**
 * The Faces or Experts look-up: tiles held by ballots (Experts: for five days, unless an
 * operator confirmed them) or marked taken; past participants, then the tiles operators
 * confirmed (`npm run results -- confirm-reservation`). A released tile is held by no ballot.
 */
async function reservationLookup(survey: ServerSurvey, kind: ReservationKind, now: Date): Promise<ReservationLookup> {
  const { db } = await database();
  const claimed = await claimedTiles(db, survey.config.project_id, kind, now);
  const taken = [...new Set([...configTakenSlugs(survey.config, kind), ...claimed])];
  const confirmed = await confirmedLabels(db, survey.config.project_id, kind);
  // The survey's own list in the language of the page that asks; the operators' confirmations as they wrote them.
  return { taken, confirmed: [...confirmedFor(localizeSurvey(survey.config, requestLanguage()), kind), ...confirmed] };
}

/** GET /api/survey/{faces|experts}/{projectId}: the tiles other ballots hold, and the past participants or experts. */
export async function reservationReply(projectId: string | undefined, kind: ReservationKind, request: Request): Promise<Response> {
  const survey = findSurvey(projectId ?? '');
  if (!survey) return unknownSurvey();
  return json(200, await reservationLookup(survey, kind, requestTime(request)));
}
