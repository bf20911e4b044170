import type { Insertable, Selectable } from 'kysely';

/** How an enrolment link was made: printed by `results operators link`, mailed at the operator's own request, or mailed by an owner from the console. */
export type EnrolmentVia = 'cli' | 'mail' | 'console';

/**
 * `console_enrolments`: one row a single-use enrolment link, the way to an operator's first
 * passkey (or a new one, for a lost passkey). Only the token's SHA-256 is stored; the link is
 * spent by the passkey it makes, and dies unused after 15 minutes.
 */
export interface ConsoleEnrolmentsTable {
  /** SHA-256 of the link's token, in hex. */
  token_hash: string;
  /** The operator's address in lower case. */
  operator: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  via: EnrolmentVia;
  /** Who made it: the operator's own address (by mail), an owner's, or `cli:<user>`. */
  issued_by: string;
}

/** A stored enrolment link. */
export type ConsoleEnrolmentRow = Selectable<ConsoleEnrolmentsTable>;
/** An enrolment link to store. */
export type NewConsoleEnrolment = Insertable<ConsoleEnrolmentsTable>;
