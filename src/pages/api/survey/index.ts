import type { APIRoute } from 'astro';
import { receiveBallot } from '../../../server/ballot-intake.ts';

export const prerender = false;

/** Receives a ballot: 201 with a receipt, or a 4xx naming every offending field (see docs/api.md). */
export const POST: APIRoute = ({ request, clientAddress }) => receiveBallot(request, clientAddress);
