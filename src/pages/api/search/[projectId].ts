import type { APIRoute } from 'astro';
import { StructError, create } from 'superstruct';
import { findSurvey } from '../../../server/surveys.ts';
import { loadAllSurveys } from '../../../survey/loader.ts';
import { json } from '../../../server/http.ts';
import { nomineeIndex, warmNomineeIndexes } from '../../../server/nominees.ts';
import { ConfigError, toProblems } from '../../../survey/errors.ts';
import { SearchBody, searchParams, type NomineeResult } from '../../../survey/nominee-search.ts';

export const prerender = false;

// Built when the server loads this route (bin/serve.mjs does at start), not when the first voter types.
setTimeout(() => warmNomineeIndexes(loadAllSurveys()), 0);

/** Search is public and carries no personal data: any origin may ask (for a survey API on its own origin). */
const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Max-Age': '86400',
};

/** The preflight of a cross-origin search. */
export const OPTIONS: APIRoute = () => new Response(null, { status: 204, headers: CORS });

/**
 * Searches the survey's nominee list: Algolia's multi-query body in, Algolia's response shape
 * out (`results[].hits` with objectID, id, name and the detail columns; nbHits, page,
 * nbPages, hitsPerPage), so that one search client interface serves both backends.
 */
export const POST: APIRoute = async ({ params, request }) => {
  const survey = findSurvey(params.projectId ?? '');
  if (!survey) return json(404, { error: 'unknown_survey', message: 'There is no survey with this project id.' }, CORS);
  let body: SearchBody;
  try {
    body = create(JSON.parse(await request.text()), SearchBody);
  } catch (error) {
    const problems = error instanceof StructError ? toProblems(error) : [{ path: '', message: 'expected a JSON body' }];
    return json(400, { error: 'bad_request', message: 'The search body is not valid.', problems }, CORS);
  }
  let engine;
  try {
    engine = nomineeIndex(survey).engine();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    return json(503, { error: 'nominee_list_invalid', message: 'The nominee list of this survey cannot be read; the server log says why.' }, CORS);
  }
  const results = body.requests.map((request): NomineeResult => {
    const started = performance.now();
    const { query, page, hitsPerPage, preferSpecialty } = searchParams(request);
    const found = engine.search(query, { page, hitsPerPage, preferSpecialty });
    return {
      ...found,
      query,
      params: new URLSearchParams({ query, page: String(page), hitsPerPage: String(hitsPerPage) }).toString(),
      index: request.indexName ?? survey.config.project_id,
      processingTimeMS: Math.round(performance.now() - started),
      exhaustiveNbHits: true,
    };
  });
  return json(200, { results }, CORS);
};
