import { StructError, create } from 'superstruct';
import { json } from '../http.ts';
import { readLimited } from '../intake/multipart.ts';
import { findSurvey } from '../surveys.ts';
import { nomineeIndex } from './nominees.ts';
import { rateLimited } from '../rate-limit.ts';
import { requestTime } from '../request-hooks.ts';
import { nulProblems } from '../../survey/ballots/control-characters.ts';
import { ConfigError, toProblems } from '../../survey/errors.ts';
import { SearchBody, searchParams, type NomineeResult } from '../../survey/nominees/nominee-search.ts';

/** The largest search body read: ten queries of any sensible length fit many times over, and reading it costs little. */
const SEARCH_BODY_LIMIT = 256 * 1024;

const invalid = (problems: Array<{ path: string; message: string }>) => json(400, { error: 'bad_request', message: 'The search body is not valid.', problems });

/**
 * Searches a survey's nominee list: Algolia's multi-query body in, Algolia's response shape
 * out. Rate-limited per client; the body is read up to 256 KB and each query cut to 100
 * characters and 8 words before it is searched, so a request costs bounded memory and time.
 * Its CORS headers are the middleware's, as every route's: for the origins allowed to search.
 */
export async function searchReply(projectId: string | undefined, request: Request, connection: string | undefined): Promise<Response> {
  const limited = await rateLimited('search', request, connection, requestTime(request));
  if (limited) return limited;
  const survey = findSurvey(projectId ?? '');
  if (!survey) return json(404, { error: 'unknown_survey', message: 'There is no survey with this project id.', problems: [] });
  const raw = await readLimited(request, SEARCH_BODY_LIMIT);
  if (raw === 'too-large') return json(413, { error: 'body_too_large', message: 'The search body is larger than 256 KB.', problems: [] });
  let body: SearchBody;
  try {
    body = create(JSON.parse(new TextDecoder().decode(raw)), SearchBody);
  } catch (error) {
    return invalid(error instanceof StructError ? toProblems(error) : [{ path: '', message: 'expected a JSON body' }]);
  }
  const nul = nulProblems(
    body.requests.flatMap((one, i) => [
      [`requests[${i}].query`, one.query ?? one.params?.query ?? ''] as const,
      [`requests[${i}].indexName`, one.indexName ?? ''] as const,
    ]),
  );
  if (nul.length) return invalid(nul);
  let engine;
  try {
    engine = nomineeIndex(survey).engine();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    return json(503, { error: 'nominee_list_invalid', message: 'The nominee list of this survey cannot be read; the server log says why.', problems: [] });
  }
  const results = body.requests.map((one): NomineeResult => {
    const started = performance.now();
    const { query, page, hitsPerPage, preferSpecialty } = searchParams(one);
    const found = engine.search(query, { page, hitsPerPage, preferSpecialty });
    return {
      ...found,
      query,
      params: new URLSearchParams({ query, page: String(page), hitsPerPage: String(hitsPerPage) }).toString(),
      index: one.indexName ?? survey.config.project_id,
      processingTimeMS: Math.round(performance.now() - started),
      exhaustiveNbHits: true,
    };
  });
  return json(200, { results });
}
