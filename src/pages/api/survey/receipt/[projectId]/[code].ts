import type { APIRoute } from 'astro';
import { checkReceipt } from '../../../../../server/receipts/receipt-check.ts';

export const prerender = false;

/** A voter's receipt check: `{ received, received_at? }`, never the ballot's content (see docs/api.md). */
export const GET: APIRoute = ({ params, request, clientAddress }) => checkReceipt(request, clientAddress, params.projectId, params.code);
