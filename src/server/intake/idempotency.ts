import type { Kysely } from 'kysely';
import type { BallotReceipt } from '../../survey/api/api-replies.ts';
import type { Database } from '../db/schema.ts';
import type { IdempotencyKeyRow } from '../db/tables/idempotency-keys.table.ts';
import { claimIdempotencyKey } from './idempotency.repository.ts';
import { refused, tryLater, type IntakeOutcome } from './intake-outcome.ts';

const IN_PROGRESS = 'This ballot is still being received; try again in a moment.';

/**
 * Reads the Idempotency-Key header: a Structured Fields string (`"…"`, as the IETF draft
 * writes it) or a bare token; undefined when absent, 'invalid' when it is neither.
 */
export function readIdempotencyKey(request: Request): string | undefined | 'invalid' {
  const raw = request.headers.get('idempotency-key');
  if (raw === null) return undefined;
  const value = /^"(.*)"$/.exec(raw.trim())?.[1] ?? raw.trim();
  return /^[\x21-\x7e]{1,255}$/.test(value) && !value.includes('"') ? value : 'invalid';
}

/**
 * What becomes of a request whose key is already known: the first receipt again, a refusal of
 * the same key with another body, try later while the first request is still in flight;
 * undefined when an abandoned claim may be taken over. A key's row keeps the receipt its
 * ballot's transaction wrote (ballots.repository.ts), the only answer a key is completed with.
 */
function knownKeyOutcome(row: IdempotencyKeyRow, fingerprint: string, now: Date, slug: string): IntakeOutcome | undefined {
  if (row.fingerprint !== fingerprint) {
    return refused('idempotency_key_reused', 'This Idempotency-Key was already used for a different ballot.', [
      { path: 'Idempotency-Key', message: 'was sent before with another body; use a new key for a new ballot.' },
    ]);
  }
  if (row.state === 'done' && row.response_body !== null) return { kind: 'duplicate', slug, receipt: JSON.parse(row.response_body) as BallotReceipt };
  if (row.locked_until > now.toISOString()) return tryLater('request_in_progress', IN_PROGRESS, 1);
  return undefined;
}

/**
 * Marks a key in flight before its ballot is stored, in a short transaction of its own so that a
 * retry on another instance sees it. Undefined once claimed; else what the key's holder
 * decides, or try later when another request took an abandoned claim over first.
 */
export async function claimKey(
  db: Kysely<Database>,
  claim: { key: string; fingerprint: string; now: Date; lockMs: number },
  slug: string,
): Promise<IntakeOutcome | undefined> {
  const held = await claimIdempotencyKey(db, claim);
  if (held === 'claimed') return undefined;
  return knownKeyOutcome(held, claim.fingerprint, claim.now, slug) ?? tryLater('request_in_progress', IN_PROGRESS);
}
