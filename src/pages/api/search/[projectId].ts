import type { APIRoute } from 'astro';
import { SEARCH_CORS, searchReply } from '../../../server/search/search-reply.ts';

export const prerender = false;

/** The preflight of a cross-origin search. */
export const OPTIONS: APIRoute = () => new Response(null, { status: 204, headers: SEARCH_CORS });

/**
 * Searches the survey's nominee list: Algolia's multi-query body in, Algolia's response shape
 * out (`results[].hits` with objectID, id, name and the detail columns; nbHits, page,
 * nbPages, hitsPerPage), so that one search client interface serves both backends.
 */
export const POST: APIRoute = ({ params, request, clientAddress }) => searchReply(params.projectId, request, clientAddress);
