import { createHash } from 'node:crypto';
import { serverConfig, type ServerConfig } from './config.ts';
import { database } from './db/database.ts';
import { refuse } from './http.ts';
import { clientAddress } from './client-address.ts';
import { countRequest } from './rate-limits.repository.ts';

/**
 * What a rate limit counts: ballot posts, searches, personal-link checks, receipt checks, or the
 * console's sign-in attempts and enrolment links asked for, each with its own allowance.
 */
export type LimitedAction = 'ballot' | 'search' | 'link' | 'receipt' | 'console';

const MESSAGES: Record<LimitedAction, string> = {
  ballot: 'Too many ballots from this address. Please try again later.',
  search: 'Too many searches from this address. Please try again in a moment.',
  link: 'Too many link checks from this address. Please try again later.',
  receipt: 'Too many receipt checks from this address. Please try again later.',
  console: 'Too many sign-in attempts. Please try again in a minute.',
};

/** Each action's allowance per window in these settings; 0 is no limit. */
function allowance(action: LimitedAction, config: ServerConfig): number {
  return {
    ballot: config.rateLimitMax,
    search: config.searchRateLimitMax,
    link: config.linkRateLimitMax,
    receipt: config.receiptRateLimitMax,
    console: config.consoleRateLimitMax,
  }[action];
}

/** Counts one request under `client` (a hash) in the database and says what to tell the client once the window's `max` is used up. */
async function countUnder(client: string, action: LimitedAction, max: number, now: Date, windowMs: number): Promise<LimitReached | undefined> {
  const { db } = await database();
  const { hits, resetAt } = await countRequest(db, client, now, windowMs);
  if (hits <= max) return undefined;
  return { message: MESSAGES[action], retryAfter: Math.max(1, Math.ceil((resetAt - now.getTime()) / 1000)) };
}

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
  const max = allowance(action, config);
  if (max === 0) return undefined;
  const address = clientAddress(request, connection, config);
  // Ballots keep the bare address as their key, so counts survive this change of code.
  const client = createHash('sha256')
    .update(action === 'ballot' ? address : `${action}:${address}`)
    .digest('hex');
  return countUnder(client, action, max, now, config.rateLimitWindowMs);
}

/**
 * Counts one request for an action under a name other than the client's address (an operator's
 * address: attempts on one account from many clients), with the action's allowance; what to tell
 * the client once it is used up, else undefined.
 */
export async function countNameAgainstLimit(action: LimitedAction, name: string, now: Date): Promise<LimitReached | undefined> {
  const config = serverConfig();
  const max = allowance(action, config);
  if (max === 0) return undefined;
  const client = createHash('sha256').update(`${action}:name:${name}`).digest('hex');
  return countUnder(client, action, max, now, config.rateLimitWindowMs);
}

/** Counts one request as `countAgainstLimit` does and answers 429 with Retry-After once the allowance is used up; undefined to go on. */
export async function rateLimited(action: LimitedAction, request: Request, connection: string | undefined, now: Date): Promise<Response | undefined> {
  const reached = await countAgainstLimit(action, request, connection, now);
  return reached && refuse(429, 'rate_limited', reached.message, [], { 'Retry-After': String(reached.retryAfter) });
}
