import type { APIRoute } from 'astro';
import { answerBallotPost } from '../../../server/intake/ballot-post.ts';

export const prerender = false;

/** Receives a ballot (src/server/intake/ballot-post.ts). */
export const POST: APIRoute = ({ request, clientAddress }) => answerBallotPost(request, clientAddress);
