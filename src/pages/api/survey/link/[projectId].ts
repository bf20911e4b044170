import type { APIRoute } from 'astro';
import { findSurvey } from '../../../../server/surveys.ts';
import { json } from '../../../../server/http.ts';
import { DEMO_SECRET, isExpired } from '../../../../survey/link.ts';
import { allFields } from '../../../../survey/layout.ts';
import { recordLinkOpen } from '../../../../server/link-opens.ts';

export const prerender = false;

/**
 * Checks a personal link: 200 with the holder's prepopulated answers, 404 for a secret the
 * survey does not know, 410 once the survey has expired. Never cached: the answer is personal.
 * Opening a link is recorded (for `responses`) and never uses it up: mail scanners open links too.
 */
export const GET: APIRoute = async ({ params, url }) => {
  const survey = findSurvey(params.projectId ?? '');
  if (!survey) return json(404, { error: 'unknown_survey', message: 'There is no survey with this project id.' });
  if (isExpired(survey.config)) return json(410, { error: 'expired', message: 'Survey form has expired!' });
  const secret = url.searchParams.get('secret') ?? '';
  const person = survey.prepopulation[secret];
  if (!person && secret !== DEMO_SECRET) return json(404, { error: 'invalid_link', message: 'Sorry, this link is invalid!' });
  // Only the layout's fields: the roster keys (nominee id, address, roster columns) are for the operators alone.
  const fields = new Set(allFields(survey.config.layout).map((field) => field.name));
  const prepopulated = Object.fromEntries(Object.entries(person ?? {}).filter(([name]) => fields.has(name)));
  if (person) await recordLinkOpen(survey.config.project_id, secret);
  return json(200, { prepopulated });
};
