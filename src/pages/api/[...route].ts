import type { APIRoute } from 'astro';
import { answerRoute } from '../../server/route-handlers.ts';

export const prerender = false;

/** Every address of the survey API, answered by its route in the route table (src/server/routes.ts). */
export const ALL: APIRoute = (context) => answerRoute(context);
