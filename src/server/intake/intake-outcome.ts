import type { BallotReceipt } from '../../survey/api/api-replies.ts';
import type { Problem } from '../../survey/errors.ts';

// What became of one ballot post. The intake's steps return these and never build a Response:
// the endpoint alone (ballot-post.ts) says them in HTTP, as JSON or as a page.

/**
 * Each code a ballot may be refused with for a rule, and the status the API answers it with
 * (docs/api.md, "Errors"): final until the sender changes the ballot, its link or its request.
 */
const REFUSALS = {
  bad_query: 400,
  bad_idempotency_key: 400,
  malformed_body: 400,
  invalid_text: 400,
  invalid_link: 403,
  verification_required: 403,
  unknown_survey: 404,
  already_submitted: 409,
  expired: 410,
  body_too_large: 413,
  unsupported_media_type: 415,
  invalid_ballot: 422,
  idempotency_key_reused: 422,
} as const;

/** Each code of an answer that decided nothing, so the same request may be sent again, and its status. */
const WAITS = {
  request_in_progress: 409,
  rate_limited: 429,
  burst: 429,
} as const;

/** Why a ballot was refused for a rule. */
export type RefusalCode = keyof typeof REFUSALS;

/** Why a ballot was neither stored nor refused: it is to be sent again later. */
type WaitCode = keyof typeof WAITS;

/** The ballot was stored in one transaction: its receipt, and the survey's slug for the thank-you page. */
export interface Stored {
  kind: 'stored';
  slug: string;
  receipt: BallotReceipt;
}

/** The same ballot again under an Idempotency-Key whose first request stored it: that first receipt; nothing stored anew. */
interface Duplicate {
  kind: 'duplicate';
  slug: string;
  receipt: BallotReceipt;
}

/** Refused for a rule: a code, a sentence for people, and every offending field. */
export interface Refused {
  kind: 'refused';
  code: RefusalCode;
  message: string;
  problems: Problem[];
}

/** Nothing decided: too many ballots from this address, or the same ballot still being received; `retryAfter` in seconds, when known. */
export interface TryLater {
  kind: 'try_later';
  code: WaitCode;
  message: string;
  retryAfter?: number;
}

/** What became of one ballot post. */
export type IntakeOutcome = Stored | Duplicate | Refused | TryLater;

/** A refusal for a rule. */
export function refused(code: RefusalCode, message: string, problems: Problem[] = []): Refused {
  return { kind: 'refused', code, message, problems };
}

/** An answer that decided nothing: the sender is to try again, after `retryAfter` seconds when given. */
export function tryLater(code: WaitCode, message: string, retryAfter?: number): TryLater {
  return retryAfter === undefined ? { kind: 'try_later', code, message } : { kind: 'try_later', code, message, retryAfter };
}

/** True for a step's refusal, as against the value the step passes on. */
export function isRefused<T extends object>(value: T | Refused): value is Refused {
  return 'kind' in value && value.kind === 'refused';
}

/** The HTTP status an outcome is answered with: 201 for a receipt, the code's own for the rest. */
export function outcomeStatus(outcome: IntakeOutcome): number {
  switch (outcome.kind) {
    case 'stored':
    case 'duplicate':
      return 201;
    case 'refused':
      return REFUSALS[outcome.code];
    case 'try_later':
      return WAITS[outcome.code];
  }
}
