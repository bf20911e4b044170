import type { APIRoute } from 'astro';
import { healthReply } from '../../server/survey-routes.ts';

export const prerender = false;

/** Readiness: 200 once the database is open and migrated (bin/serve.mjs asks this at start). */
export const GET: APIRoute = () => healthReply();
