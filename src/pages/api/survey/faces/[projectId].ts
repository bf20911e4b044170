import type { APIRoute } from 'astro';
import { reservationReply } from '../../../../server/reservations/lookup-reply.ts';

export const prerender = false;

/** The Faces look-up (docs/spec.md, "Reservations"): `{ taken, confirmed }`. */
export const GET: APIRoute = ({ params, request }) => reservationReply(params.projectId, 'faces', request);
