// The audit trail's hash chain: how an entry's hash is worked out, and the check that a survey's
// trail is the one line its appends made. Plain functions over rows, with no database: the
// command line's `audit --verify` and the operator console's check both call verifyChain.
import { createHash } from 'node:crypto';
import type { AuditRow } from './tables/audit-log.table.ts';
import type { PublishedResults } from '../../survey/published/published-results.ts';

/** The prev_hash of a survey's first entry: 64 zeros. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * The fields an entry's hash covers, in the order of the canonical form. Everything but the hash
 * itself: `seq` fixes the entry's place, `prev_hash` ties it to the entry before.
 */
const HASHED_FIELDS = [
  'seq',
  'id',
  'project_id',
  'at',
  'actor',
  'actor_email',
  'action',
  'subject',
  'reason',
  'details',
  'via',
  'role',
  'session',
  'prev_hash',
] as const satisfies ReadonlyArray<keyof AuditRow>;

/** An entry as the chain sees it: the hashed fields and the hash stored with them. */
export type ChainEntry = Pick<AuditRow, (typeof HASHED_FIELDS)[number] | 'hash'>;

/**
 * The canonical form of an entry, which its hash is taken of: the JSON text of an array of its
 * hashed fields in the order of HASHED_FIELDS, with no spaces, a missing value as null, `seq` as
 * a number and every other field as the text stored (`details` too: its JSON text, not
 * re-encoded). Python's `json.dumps(fields, separators=(',', ':'), ensure_ascii=False)` writes
 * the same text.
 */
function canonicalEntry(entry: Omit<ChainEntry, 'hash'>): string {
  return JSON.stringify(HASHED_FIELDS.map((field) => entry[field] ?? null));
}

/** An entry's hash: SHA-256 of its canonical form in UTF-8, as 64 lowercase hex digits. */
export function entryHash(entry: Omit<ChainEntry, 'hash'>): string {
  return createHash('sha256').update(canonicalEntry(entry), 'utf8').digest('hex');
}

/** What the trail keeps of a console session's id: its SHA-256, so that the entry names the session without holding it. */
export function sessionHash(sessionId: string): string {
  return createHash('sha256').update(sessionId, 'utf8').digest('hex');
}

/**
 * A hash noted outside the database: the head an operator wrote down, or the entry a publication
 * names. The trail must still hold it, which the chain alone cannot show for its newest entries.
 */
export interface ChainAnchor {
  /** Where the hash was noted, as the check's answer names it: "the head given (--head)". */
  source: string;
  /** The entry's hash, whole or its first 16 or more hex digits; absent when only the id was noted. */
  hash?: string;
  /** The entry's id, when the anchor names it. */
  id?: string;
}

/** How a trail fails its check: the first entry out of line, and what is wrong with it. */
type ChainProblem = 'changed' | 'removed' | 'reordered' | 'repeated' | 'anchor';

/** The answer of a check: the trail's length and head, or its first problem in one sentence. */
export type ChainCheck =
  | { ok: true; entries: number; head: string | null; message: string }
  | { ok: false; entries: number; problem: ChainProblem; entry?: Pick<ChainEntry, 'seq' | 'id' | 'at'>; message: string };

/**
 * The anchor a publication sets: the audit entry its results.json names (`audit_entry`), with
 * the hash it had then (`audit_head`; a folder published before the chain names the id alone).
 * None when no entry was named.
 */
export function publicationAnchor(results: Pick<PublishedResults, 'audit_entry' | 'audit_head'>, source: string): ChainAnchor | undefined {
  if (!results.audit_entry || results.audit_entry === 'none') return undefined;
  const hash = results.audit_head && results.audit_head !== 'none' ? results.audit_head : undefined;
  return { source, id: results.audit_entry, ...(hash ? { hash } : {}) };
}

const named = (entry: ChainEntry) => `entry ${entry.seq ?? '(no number)'} (id ${entry.id}, at ${entry.at})`;
const span = (from: number, to: number) => (from === to ? `entry ${from} was` : `entries ${from} to ${to} were`);
const hashSeen = (anchor: ChainAnchor) => (anchor.hash ? `hash ${anchor.hash.slice(0, 16)}…` : '');

/** Where an anchor's entry sits in the trail, or undefined when the trail no longer holds it. */
function anchored(trail: readonly ChainEntry[], anchor: ChainAnchor): ChainEntry | undefined {
  const hash = anchor.hash?.toLowerCase();
  return trail.find((entry) => (!anchor.id || entry.id === anchor.id) && (!hash || (entry.hash ?? '').startsWith(hash)));
}

/**
 * Checks a survey's trail, walking it by `seq`: each entry must come next in number, name the
 * hash of the entry before it (the first, GENESIS_HASH), and hash to what it stores. Answers the
 * first entry out of line, named by its number, id and time: changed (its content no longer gives
 * its hash), removed (a number is missing and the next entry's prev_hash is not the hash before),
 * reordered (its prev_hash is not the hash of the entry now before it) or repeated (two entries
 * with one number). Removing the newest entries leaves a shorter trail that checks; an anchor, a
 * hash noted outside the database, shows that too, as do the anchors' entries changed and the
 * chain rewritten after them.
 */
export function verifyChain(entries: readonly ChainEntry[], anchors: readonly ChainAnchor[] = []): ChainCheck {
  const trail = [...entries].sort(
    (a, b) => (a.seq ?? Number.POSITIVE_INFINITY) - (b.seq ?? Number.POSITIVE_INFINITY) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const failed = (problem: ChainProblem, entry: ChainEntry | undefined, message: string): ChainCheck => ({
    ok: false,
    entries: trail.length,
    problem,
    ...(entry ? { entry: { seq: entry.seq, id: entry.id, at: entry.at } } : {}),
    message,
  });
  let previous: ChainEntry | undefined;
  for (const entry of trail) {
    const expected = previous ? (previous.seq ?? 0) + 1 : 1;
    const before = previous ? previous.hash : GENESIS_HASH;
    const beforeWords = previous ? `entry ${previous.seq}` : 'the genesis value';
    if (entry.prev_hash !== before) {
      if (typeof entry.seq === 'number' && entry.seq > expected) {
        const where = previous ? `${named(entry)} follows entry ${previous.seq}` : `the trail begins at ${named(entry)}`;
        return failed('removed', entry, `${span(expected, entry.seq - 1)} removed: ${where}, and its prev_hash does not match ${beforeWords}`);
      }
      if (typeof entry.seq === 'number' && entry.seq < expected)
        return failed('repeated', entry, `${named(entry)} repeats the number of the entry before it: the trail was forked, or an entry copied into it`);
      return failed('reordered', entry, `${named(entry)} was removed or reordered: its prev_hash does not match ${beforeWords}`);
    }
    if (entryHash(entry) !== entry.hash) return failed('changed', entry, `${named(entry)} was changed: its hash does not match its content`);
    previous = entry;
  }
  for (const anchor of anchors) {
    if (anchored(trail, anchor)) continue;
    const what = [anchor.id ? `entry ${anchor.id}` : 'an entry', hashSeen(anchor)].filter(Boolean).join(' with ');
    return failed(
      'anchor',
      undefined,
      `${anchor.source} names ${what}, which is not in the trail: it was removed, or it or an entry before it was changed and the chain written again after it`,
    );
  }
  const head = previous?.hash ?? null;
  const where = anchors.map((anchor) => `${anchor.source} is entry ${anchored(trail, anchor)!.seq}`);
  return {
    ok: true,
    entries: trail.length,
    head,
    message: `verified: ${trail.length} ${trail.length === 1 ? 'entry' : 'entries'}, head ${head ?? 'none (the trail is empty)'}${where.length ? `; ${where.join('; ')}` : ''}`,
  };
}
