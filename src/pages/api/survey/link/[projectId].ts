import type { APIRoute } from 'astro';
import { findSurvey } from '../../../../server/surveys.ts';
import { json } from '../../../../server/http.ts';
import { DEMO_SECRET, isExpired } from '../../../../survey/link.ts';
import { personOf } from '../../../../survey/secrets.ts';
import { PERSON_NOMINEE_ID } from '../../../../survey/config.struct.ts';

export const prerender = false;

/**
 * Checks a personal link: 200 with the holder's prepopulated answers, 404 for a secret the
 * survey does not know, 410 once the survey has expired. Never cached: the answer is personal.
 */
export const GET: APIRoute = ({ params, url }) => {
  const survey = findSurvey(params.projectId ?? '');
  if (!survey) return json(404, { error: 'unknown_survey', message: 'There is no survey with this project id.' });
  if (isExpired(survey.config)) return json(410, { error: 'expired', message: 'Survey form has expired!' });
  const secret = url.searchParams.get('secret') ?? '';
  const person = personOf(survey.prepopulation, secret);
  if (!person && secret !== DEMO_SECRET) return json(404, { error: 'invalid_link', message: 'Sorry, this link is invalid!' });
  // The person's nominee id is for the tally alone: the page has no field for it.
  const { [PERSON_NOMINEE_ID]: _tallyOnly, ...prepopulated } = person ?? {};
  return json(200, { prepopulated });
};
