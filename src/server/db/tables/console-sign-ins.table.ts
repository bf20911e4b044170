import type { Insertable, Selectable } from 'kysely';

/** What was tried: a sign-in with a passkey, a first passkey from a link, a check again, an enrolment link asked for by mail. */
export type SignInWay = 'passkey' | 'enrolment' | 'reauthentication' | 'link-request';

/**
 * `console_sign_ins`: the sign-in log, one row a console sign-in attempt, won or lost, and each
 * enrolment link asked for. No secret: no challenge, token, cookie or signature; the client as
 * a keyed hash of its address, as the ballots keep it. Only ever inserted.
 */
export interface ConsoleSignInsTable {
  /** A UUIDv7: rows sort by it in the order they were made. */
  id: string;
  at: string;
  way: SignInWay;
  /** `signed_in` (or `mailed` for a link asked for), else `refused`. */
  outcome: 'signed_in' | 'mailed' | 'refused';
  /** The operator's address in lower case, when the attempt named one that operators.yaml holds. */
  operator: string | null;
  credential_id: string | null;
  /** The session a won attempt began (or checked again). */
  session_id: string | null;
  /** Why it was refused, as a code (`unknown_passkey`, `not_verified`, `expired_link`…); NULL when won. */
  reason: string | null;
  /** A keyed hash of the client's address (src/server/intake/signals-salt.ts), never the address. */
  client_hash: string | null;
  /** The browser and system, in a few words. */
  agent: string | null;
}

/** A logged attempt. */
export type ConsoleSignInRow = Selectable<ConsoleSignInsTable>;
/** An attempt to log. */
export type NewConsoleSignIn = Insertable<ConsoleSignInsTable>;
