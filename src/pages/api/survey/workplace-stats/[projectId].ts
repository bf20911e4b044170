import type { APIRoute } from 'astro';
import { statsReply } from '../../../../server/survey-routes.ts';

export const prerender = false;

/** Ballots per workplace for the workplace stats page; workplaces under three ballots fold into "Other". */
export const GET: APIRoute = ({ params }) => statsReply(params.projectId, 'workplaces');
