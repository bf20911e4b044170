import { createHash } from 'node:crypto';
import { serverConfig } from './config.ts';
import { database } from './db/database.ts';
import { refuse } from './http.ts';
import { clientAddress } from './client-address.ts';
import { countRequest } from './rate-limits.repository.ts';

/** What a rate limit counts: ballot posts, searches, personal-link checks or receipt checks, each with its own allowance. */
export type LimitedAction = 'ballot' | 'search' | 'link' | 'receipt';

const MESSAGES: Record<LimitedAction, string> = {
  ballot: 'Too many ballots from this address. Please try again later.',
  search: 'Too many searches from this address. Please try again in a moment.',
  link: 'Too many link checks from this address. Please try again later.',
  receipt: 'Too many receipt checks from this address. Please try again later.',
};

/** A client past its allowance: the sentence to tell it, and the seconds until its window turns over. */
export interface LimitReached {
  message: string;
  retryAfter: number;
}

/**
 * Counts one request of a client for an action in the database (so every instance shares the
 * count); once the window's allowance is used up, what to tell the client; undefined to go on.
 * The client is the SHA-256 of its address with the action, so each action has its own count.
 */
export async function countAgainstLimit(action: LimitedAction, request: Request, connection: string | undefined, now: Date): Promise<LimitReached | undefined> {
  const config = serverConfig();
  const max = { ballot: config.rateLimitMax, search: config.searchRateLimitMax, link: config.linkRateLimitMax, receipt: config.receiptRateLimitMax }[action];
  if (max === 0) return undefined;
  const { db } = await database();
  const address = clientAddress(request, connection, config);
  // Ballots keep the bare address as their key, so counts survive this change of code.
  const client = createHash('sha256')
    .update(action === 'ballot' ? address : `${action}:${address}`)
    .digest('hex');
  const { hits, resetAt } = await countRequest(db, client, now, config.rateLimitWindowMs);
  if (hits <= max) return undefined;
  return { message: MESSAGES[action], retryAfter: Math.max(1, Math.ceil((resetAt - now.getTime()) / 1000)) };
}

/** Counts one request as `countAgainstLimit` does and answers 429 with Retry-After once the allowance is used up; undefined to go on. */
export async function rateLimited(action: LimitedAction, request: Request, connection: string | undefined, now: Date): Promise<Response | undefined> {
  const reached = await countAgainstLimit(action, request, connection, now);
  return reached && refuse(429, 'rate_limited', reached.message, [], { 'Retry-After': String(reached.retryAfter) });
}
