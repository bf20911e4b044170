import type { IdempotencyKeyRow } from '../db/idempotency-keys.table.ts';
import { json, refuse } from '../http.ts';

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
 * What to answer a request whose key is already known: the first answer again, 422 for the same
 * key with another body, 409 while the first request is still in flight; undefined when an
 * abandoned claim may be taken over.
 */
export function answerForKnownKey(row: IdempotencyKeyRow, fingerprint: string, now: Date): Response | undefined {
  if (row.fingerprint !== fingerprint) {
    return refuse(422, 'idempotency_key_reused', 'This Idempotency-Key was already used for a different ballot.', [
      { path: 'Idempotency-Key', message: 'was sent before with another body; use a new key for a new ballot.' },
    ]);
  }
  if (row.state === 'done' && row.response_body !== null) {
    return json(row.response_status ?? 201, JSON.parse(row.response_body), { 'Idempotent-Replayed': 'true' });
  }
  if (row.locked_until > now.toISOString()) {
    return refuse(409, 'request_in_progress', 'This ballot is still being received; try again in a moment.', [], { 'Retry-After': '1' });
  }
  return undefined;
}
