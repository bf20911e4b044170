import type { APIRoute } from 'astro';
import { linkReply } from '../../../../server/survey-routes.ts';

export const prerender = false;

/**
 * Checks a personal link: 200 with the holder's prepopulated answers, 404 for a secret the
 * survey does not know, 410 once the survey has expired, 429 past the client's allowance of
 * checks. Never cached: the answer is personal. Opening a link is noted for `responses` and
 * never uses it up.
 */
export const GET: APIRoute = ({ params, url, request, clientAddress }) =>
  linkReply(params.projectId, url.searchParams.get('secret') ?? '', request, clientAddress);
