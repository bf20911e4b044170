import type { APIRoute } from 'astro';
import { reservationReply } from '../../../../server/reservations/lookup-reply.ts';

export const prerender = false;

/** The Experts look-up (docs/spec.md, "Reservations"): `{ taken, confirmed }`; a ballot's claim holds five days. */
export const GET: APIRoute = ({ params, request }) => reservationReply(params.projectId, 'asktheexpert', request);
