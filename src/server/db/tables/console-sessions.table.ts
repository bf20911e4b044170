import type { Insertable, Selectable } from 'kysely';

/** Why a session ended before its limits: the operator signed out (here or everywhere), an owner ended it, or a new enrolment link did. */
export type SessionEnd = 'signed_out' | 'signed_out_everywhere' | 'ended_by_owner' | 'new_enrolment_link';

/**
 * `console_sessions`: one row a console session. The cookie holds the session's id and a secret;
 * only the secret's SHA-256 is stored, so a copy of the database signs no one in. A session
 * ends on its idle and absolute limits (worked out from these times), or when `ended_at` is set.
 */
export interface ConsoleSessionsTable {
  /** The random id, the cookie's first part. */
  id: string;
  /** SHA-256 of the secret, the cookie's second part, in hex. */
  secret_hash: string;
  /** The operator's address in lower case. */
  operator: string;
  created_at: string;
  /** The last request seen, for the idle limit (written at most once a minute). */
  last_seen_at: string;
  /** The last passkey check: the sign-in, or a check again for a sensitive act. */
  reauthenticated_at: string;
  /** The browser and system the session began in, in a few words ("Chrome on Linux"), for the operator's list of sessions. */
  agent: string | null;
  ended_at: string | null;
  ended_why: SessionEnd | null;
}

/** A stored session. */
export type ConsoleSessionRow = Selectable<ConsoleSessionsTable>;
/** A session to store. */
export type NewConsoleSession = Insertable<ConsoleSessionsTable>;
