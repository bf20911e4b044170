import { serverConfig } from './config.ts';
import { database } from './db/instance.ts';
import { findSurvey } from './surveys.ts';
import { json, refuse } from './http.ts';
import { ballotByReceipt } from './repositories/receipts.repository.ts';
import { normalizeReceipt, receiptAnswerText } from '../survey/receipt-code.ts';
import type { ReceiptCheck } from '../survey/api-answers.ts';
import { requestTime } from './test-hooks.ts';
import { rateLimited } from './rate-limit.ts';

/** True when a browser navigated here (the check form without JavaScript): it is answered a page, not JSON. */
function wantsPage(request: Request): boolean {
  const accept = request.headers.get('accept') ?? '';
  return accept.includes('text/html') && !accept.startsWith('application/json');
}

function page(status: number, sentence: string, headers: Record<string, string> = {}): Response {
  const escaped = sentence.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  const body = `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Receipt check</title></head>\n<body><h1>Receipt check</h1><p>${escaped}</p><p>Use your browser's Back button to return to the survey.</p></body></html>\n`;
  return new Response(body, { status, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...headers } });
}

/**
 * Answers a voter's receipt check (`GET /api/survey/receipt/{projectId}/{code}`, or `?code=`
 * from the check form): whether and when a ballot with this code was received, nothing of its
 * answers or its voter. JSON, or a plain page for a browser that navigated here. Rate-limited
 * per client address in a bucket of its own, so checking never eats into posting a ballot.
 */
export async function checkReceipt(request: Request, connection: string | undefined, projectId: string | undefined, typed: string | undefined): Promise<Response> {
  const config = serverConfig();
  const now = requestTime(request, config);
  const asPage = wantsPage(request);
  const { db } = await database();
  const limited = await rateLimited('receipt', request, connection, now);
  if (limited) return asPage ? page(429, receiptAnswerText('too-many', ''), { 'Retry-After': limited.headers.get('Retry-After') ?? '60' }) : limited;
  const survey = findSurvey(projectId ?? '');
  if (!survey) return refuse(404, 'unknown_survey', 'There is no survey with this project id.');
  const code = normalizeReceipt(typed ?? '');
  if (!code) {
    return asPage ? page(400, receiptAnswerText('bad-code', '')) : refuse(400, 'bad_receipt', 'A receipt code has 12 letters and digits, such as 7K3M-Q9TD-2XHB.', [{ path: 'code', message: 'is not a receipt code.' }]);
  }
  const ballot = await ballotByReceipt(db, survey.config.project_id, code);
  const answer: ReceiptCheck = ballot ? { received: true, received_at: ballot.created_at } : { received: false };
  return asPage ? page(200, receiptAnswerText(answer, code)) : json(200, answer);
}
