import type { APIRoute } from 'astro';
import { checkReceipt } from '../../../../../server/receipts/receipt-check.ts';

export const prerender = false;

/** The receipt check form's target, `?code=`: the same answer as `/{code}`, a plain page for a browser without JavaScript. */
export const GET: APIRoute = ({ params, request, url, clientAddress }) =>
  checkReceipt(request, clientAddress, params.projectId, url.searchParams.get('code') ?? '');
