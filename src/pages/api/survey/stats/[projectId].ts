import type { APIRoute } from 'astro';
import { statsReply } from '../../../../server/survey-routes.ts';

export const prerender = false;

/** Participation figures for the stats page; never a nominee's count. */
export const GET: APIRoute = ({ params }) => statsReply(params.projectId, 'participation');
