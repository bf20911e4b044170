import type { ReservationKind } from '../survey/tiles.ts';
import { serverConfig } from './config.ts';
import { database } from './db/instance.ts';
import { json, refuse } from './http.ts';
import { findSurvey, surveyCount } from './surveys.ts';
import { participationStats, reservationLookup, workplaceStats } from './survey-answers.ts';
import { requestTime } from './test-hooks.ts';

const unknownSurvey = () => refuse(404, 'unknown_survey', 'There is no survey with this project id.', [{ path: 'projectId', message: 'names no survey.' }]);

/** GET /api/survey/{faces|experts}/{projectId}. */
export async function reservationAnswer(projectId: string | undefined, kind: ReservationKind, request: Request): Promise<Response> {
  const survey = findSurvey(projectId ?? '');
  if (!survey) return unknownSurvey();
  return json(200, await reservationLookup(survey, kind, requestTime(request, serverConfig())));
}

/** GET /api/survey/{stats|workplace-stats}/{projectId}. */
export async function statsAnswer(projectId: string | undefined, which: 'participation' | 'workplaces'): Promise<Response> {
  const survey = findSurvey(projectId ?? '');
  if (!survey) return unknownSurvey();
  return json(200, which === 'participation' ? await participationStats(survey) : await workplaceStats(survey));
}

/** GET /api/health: loads the surveys, opens and migrates the database; 200 once ready. */
export async function healthAnswer(): Promise<Response> {
  const surveys = surveyCount();
  const { dialect } = await database();
  return json(200, { ok: true, database: dialect, surveys });
}
