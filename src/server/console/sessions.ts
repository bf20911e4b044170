import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ConsoleSessionRow, SessionEnd } from '../db/tables/console-sessions.table.ts';
import type { ConsoleSessionView } from '../../survey/operators/console-views.ts';
import type { ConsoleAddress } from './console-address.ts';
import type { ActSigner } from '../db/audit.repository.ts';
import type { Operator, OperatorRole } from '../../survey/operators/operators.struct.ts';
import { endSessionRow, endSessionRows, insertSession, markReauthenticated, sessionById, touchSession, unendedSessions } from './sessions.repository.ts';

// Console sessions (OWASP ASVS 5.0 V7): a random id and a secret of 256 bits in the cookie, a
// hash of the secret in the database; a new session at every sign-in; ended on the server by
// "Sign out", after 30 minutes without a request, and 12 hours after it began, whatever happens.

/** A session ends after this long without a request. */
const IDLE_LIMIT_MS = 30 * 60 * 1000;
/** A session ends this long after it began, however busy. */
const ABSOLUTE_LIMIT_MS = 12 * 60 * 60 * 1000;
/** A sensitive act asks for a passkey check this recent. */
const REAUTHENTICATION_WINDOW_MS = 5 * 60 * 1000;
/** A request is noted at most this often: the idle limit then counts from up to a minute before the last request, never after it. */
const TOUCH_EVERY_MS = 60 * 1000;

/** The cookie's value: 16 random bytes of id, a dot, 32 random bytes of secret, both base64url. */
const TOKEN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A session found for a cookie: its row's times, and the CSRF token its forms carry (derived from the secret, so stored nowhere). */
export interface ConsoleSession extends ConsoleSessionView {
  readonly operator: string;
  readonly csrf: string;
}

/** The CSRF token of a session: an HMAC of a fixed text under the session's secret, which only the cookie's holder can make. */
function csrfOf(secret: string): string {
  return createHmac('sha256', secret).update('peervote-console-csrf').digest('base64url');
}

/** True when `given` is the session's CSRF token, compared in constant time. */
export function csrfMatches(session: ConsoleSession, given: string | null | undefined): boolean {
  if (!given) return false;
  const [a, b] = [Buffer.from(session.csrf), Buffer.from(given)];
  return a.length === b.length && timingSafeEqual(a, b);
}

const view = (row: ConsoleSessionRow, secret: string): ConsoleSession => ({
  id: row.id,
  operator: row.operator,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
  reauthenticatedAt: row.reauthenticated_at,
  csrf: csrfOf(secret),
});

/** True while a session is within its idle and absolute limits at `now` and has not been ended. */
function sessionOpen(row: Pick<ConsoleSessionRow, 'created_at' | 'last_seen_at' | 'ended_at'>, now: Date): boolean {
  const at = now.getTime();
  return row.ended_at === null && at - Date.parse(row.last_seen_at) <= IDLE_LIMIT_MS && at - Date.parse(row.created_at) <= ABSOLUTE_LIMIT_MS;
}

/** True when the session's last passkey check is recent enough for a sensitive act. */
export function recentlyReauthenticated(session: ConsoleSessionView, now: Date): boolean {
  const elapsed = now.getTime() - Date.parse(session.reauthenticatedAt);
  return elapsed >= 0 && elapsed <= REAUTHENTICATION_WINDOW_MS;
}

/**
 * Begins a session for an operator who has just proven a passkey: a new id and secret every
 * time (never one the browser brought), of which only the secret's hash is stored. Gives the
 * cookie's value, once.
 */
export async function startSession(
  db: Kysely<Database> | Transaction<Database>,
  operator: string,
  now: Date,
  agent: string | null,
): Promise<{ token: string; session: ConsoleSession }> {
  const id = randomBytes(16).toString('base64url');
  const secret = randomBytes(32).toString('base64url');
  const at = now.toISOString();
  const row: ConsoleSessionRow = {
    id,
    secret_hash: sha256(secret),
    operator,
    created_at: at,
    last_seen_at: at,
    reauthenticated_at: at,
    agent,
    ended_at: null,
    ended_why: null,
  };
  await insertSession(db, row);
  return { token: `${id}.${secret}`, session: view(row, secret) };
}

/**
 * The open session a cookie's value names, noting the request for its idle limit; undefined
 * for a malformed value, an unknown id, a wrong secret, or a session ended or past its limits.
 */
export async function sessionOf(db: Kysely<Database>, token: string | undefined, now: Date): Promise<ConsoleSession | undefined> {
  const parts = token ? TOKEN.exec(token) : null;
  if (!parts) return undefined;
  const [, id, secret] = parts;
  const row = await sessionById(db, id);
  if (!row) return undefined;
  const [stored, given] = [Buffer.from(row.secret_hash, 'hex'), Buffer.from(sha256(secret), 'hex')];
  if (stored.length !== given.length || !timingSafeEqual(stored, given)) return undefined;
  if (!sessionOpen(row, now)) return undefined;
  if (now.getTime() - Date.parse(row.last_seen_at) >= TOUCH_EVERY_MS) {
    row.last_seen_at = now.toISOString();
    await touchSession(db, id, row.last_seen_at);
  }
  return view(row, secret);
}

/** Notes a passkey check in the session now. */
export async function reauthenticated(db: Kysely<Database>, session: ConsoleSessionView, now: Date): Promise<void> {
  await markReauthenticated(db, session.id, now.toISOString());
}

/** Ends one of an operator's sessions on the server; true when it was open. */
export function endSession(db: Kysely<Database> | Transaction<Database>, operator: string, id: string, why: SessionEnd, now: Date): Promise<boolean> {
  return endSessionRow(db, id, operator, why, now.toISOString());
}

/** Ends every session of an operator (but `except`, the one asking); how many it ended. */
export function endSessions(db: Kysely<Database> | Transaction<Database>, operator: string, why: SessionEnd, now: Date, except?: string): Promise<number> {
  return endSessionRows(db, operator, why, now.toISOString(), except);
}

/** An operator's open sessions at `now`, newest first. */
export async function openSessions(db: Kysely<Database>, operator: string, now: Date): Promise<ConsoleSessionRow[]> {
  const rows = await unendedSessions(db, operator, new Date(now.getTime() - ABSOLUTE_LIMIT_MS).toISOString());
  return rows.filter((row) => sessionOpen(row, now));
}

/** The session cookie's value in a request's Cookie header, by the console's cookie name. */
export function sessionToken(request: Request, address: ConsoleAddress): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === address.cookieName) return part.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * The Set-Cookie header of a session: HttpOnly, SameSite=Strict, for the whole site, with no
 * expiry (the browser drops it when it closes; the server ends it before); over HTTPS `Secure`
 * and `__Host-` prefixed, so that no other host or path can set it.
 */
export function sessionCookie(address: ConsoleAddress, token: string): string {
  return `${address.cookieName}=${token}; Path=/; HttpOnly; SameSite=Strict${address.secure ? '; Secure' : ''}`;
}

/** The Set-Cookie header that removes the session cookie from the browser. */
export function clearedSessionCookie(address: ConsoleAddress): string {
  return `${address.cookieName}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict${address.secure ? '; Secure' : ''}`;
}

/**
 * Who acted in the console, as the audit trail signs an act: through the console, the operator's
 * name and address, the role the act was done in (an owner's over other operators; none over
 * one's own passkeys), and the session (the trail keeps its hash).
 */
export function signedBy(operator: Operator, session: Pick<ConsoleSession, 'id'>, role: OperatorRole | null): ActSigner {
  return { actor: operator.name, via: 'console', actorEmail: operator.key, role, sessionId: session.id };
}
