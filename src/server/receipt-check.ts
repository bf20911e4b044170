import { createHash } from 'node:crypto';
import { serverConfig } from './config.ts';
import { database } from './db/instance.ts';
import { findSurvey } from './surveys.ts';
import { json, refuse } from './http.ts';
import { clientAddress } from './client-address.ts';
import { countRequest } from './repositories/rate-limits.repository.ts';
import { ballotByReceipt } from './repositories/receipts.repository.ts';
import { normalizeReceipt } from '../survey/receipt-code.ts';
import type { ReceiptCheck } from '../survey/api-answers.ts';
import { requestTime } from './test-hooks.ts';

/**
 * Answers a voter's receipt check (`GET /api/survey/receipt/{projectId}/{code}`): whether and
 * when a ballot with this code was received, nothing of its answers or its voter. Rate-limited
 * per client address in a bucket of its own, so checking never eats into posting a ballot.
 */
export async function checkReceipt(request: Request, connection: string | undefined, projectId: string | undefined, typed: string | undefined): Promise<Response> {
  const config = serverConfig();
  const now = requestTime(request, config);
  const { db } = await database();
  if (config.receiptRateLimitMax > 0) {
    const client = `receipt:${createHash('sha256').update(clientAddress(request, connection, config)).digest('hex')}`;
    const { hits, resetAt } = await countRequest(db, client, now, config.rateLimitWindowMs);
    if (hits > config.receiptRateLimitMax) {
      const retryAfter = String(Math.max(1, Math.ceil((resetAt - now.getTime()) / 1000)));
      return refuse(429, 'rate_limited', 'Too many receipt checks from this address. Please try again later.', [], { 'Retry-After': retryAfter });
    }
  }
  const survey = findSurvey(projectId ?? '');
  if (!survey) return refuse(404, 'unknown_survey', 'There is no survey with this project id.');
  const code = normalizeReceipt(typed ?? '');
  if (!code) return refuse(400, 'bad_receipt', 'A receipt code has 12 letters and digits, such as 7K3M-Q9TD-2XHB.', [{ path: 'code', message: 'is not a receipt code.' }]);
  const ballot = await ballotByReceipt(db, survey.config.project_id, code);
  const answer: ReceiptCheck = ballot ? { received: true, received_at: ballot.created_at } : { received: false };
  return json(200, answer);
}
