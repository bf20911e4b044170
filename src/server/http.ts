import type { Problem } from '../survey/errors.ts';
import type { ApiErrorBody } from '../survey/api/api-replies.ts';
import { m } from '../i18n/messages.ts';

/**
 * A JSON answer that no cache keeps: API answers are per request and may be personal. It states
 * its length, so that the server sends it in one piece rather than in chunks with an end marker.
 */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  return new Response(bytes, {
    status,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(bytes.byteLength),
      'Cache-Control': 'no-store',
      ...headers,
    },
  });
}

/** A 4xx answer in the API's one error shape: a code, a sentence, and every offending field. */
export function refuse(status: number, error: string, message: string, problems: Problem[] = [], headers: Record<string, string> = {}): Response {
  const body: ApiErrorBody = { error, message, problems };
  return json(status, body, headers);
}

/** The 404 of an endpoint whose project id names no survey. */
export const unknownSurvey = (): Response => refuse(404, 'unknown_survey', m.api_no_survey(), [{ path: 'projectId', message: m.api_names_no_survey() }]);
