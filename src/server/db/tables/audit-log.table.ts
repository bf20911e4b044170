import type { Insertable, Selectable } from 'kysely';

/**
 * Through what an act was done: the operator's command line, the operator console, or a link in
 * a message (a recipient's unsubscribe, the one entry no operator makes).
 */
export type AuditVia = 'command line' | 'console' | 'mail link';

/**
 * `audit_log`: one row per act that changed data (an invitation, an admitted ballot, a write-in
 * decision, a reservation decision, a purge, an exclusion). Rows are only ever inserted: no
 * command updates or deletes them. Each survey's rows are one hash chain (audit-chain.ts): every
 * row holds the hash of the row before it and its own, so that a row changed, removed or moved
 * shows.
 */
export interface AuditLogTable {
  /** A UUIDv7, made from `at`. */
  id: string;
  project_id: string;
  /** The entry's place in its survey's trail: 1, 2, 3… in the order the entries were appended. NULL never written. */
  seq: number | null;
  /** ISO 8601 UTC. */
  at: string;
  /** Who, as shown: `--by`, else the operating system's user; the operator's name in the console. */
  actor: string;
  /** The operator's address, when the act came with one (a console sign-in). */
  actor_email: string | null;
  /** What, as a command's name: `writeins resolve`, `confirm-reservation`, `admit`… */
  action: string;
  /** What it was done to: a ballot id, a write-in name, a tile; NULL when the whole survey. */
  subject: string | null;
  /** Why, in the operator's words (`--why`, `--note`). */
  reason: string | null;
  /** What changed, as JSON: counts and ids, never a voter's answers. */
  details: string | null;
  via: AuditVia;
  /** The operator's role on the survey when they acted, when the act came with one (the console's). */
  role: string | null;
  /** The SHA-256 of the console session's id (audit-chain.ts, sessionHash), never the id; NULL outside the console. */
  session: string | null;
  /** The hash of the survey's entry before this one; 64 zeros for its first. NULL never written. */
  prev_hash: string | null;
  /** SHA-256 of the entry's canonical form (audit-chain.ts, canonicalEntry). NULL never written. */
  hash: string | null;
}

/** A stored audit entry. */
export type AuditRow = Selectable<AuditLogTable>;
/** An audit entry to store. */
export type NewAuditRow = Insertable<AuditLogTable>;
