import type { Insertable, Selectable } from 'kysely';

/** What a passkey ceremony is for: signing in, a first passkey from an enrolment link, another passkey while signed in, or a check again. */
export type CeremonyPurpose = 'sign-in' | 'enrol' | 'add-passkey' | 'reauthenticate';

/**
 * `console_challenges`: the challenge of each passkey ceremony under way, between its two calls
 * (SimpleWebAuthn's options, then the authenticator's answer). Each is used once and dies after
 * five minutes; a ceremony started signed in names its session, one from a link names the link.
 */
export interface ConsoleChallengesTable {
  id: string;
  /** The challenge, base64url, as the options gave it. */
  challenge: string;
  purpose: CeremonyPurpose;
  operator: string | null;
  session_id: string | null;
  /** The enrolment link's token hash, for `enrol`. */
  enrolment: string | null;
  /** The WebAuthn user handle a new passkey is made for (base64url), for `enrol` and `add-passkey`. */
  user_handle: string | null;
  expires_at: string;
}

/** A stored challenge. */
export type ConsoleChallengeRow = Selectable<ConsoleChallengesTable>;
/** A challenge to store. */
export type NewConsoleChallenge = Insertable<ConsoleChallengesTable>;
