import type { Insertable, Selectable } from 'kysely';

/**
 * `audit_log`: one row per operator command that changed data (an invitation, an admitted
 * ballot, a write-in decision, a reservation decision, a purge, an exclusion). Rows are only
 * ever inserted: no command updates or deletes them, so the trail is the history as it happened.
 */
export interface AuditLogTable {
  /** A UUIDv7: entries sort by it in the order they were made. */
  id: string;
  project_id: string;
  /** ISO 8601 UTC. */
  at: string;
  /** Who: `--by`, else the operating system's user. */
  actor: string;
  /** What, as a command's name: `writeins resolve`, `confirm-reservation`, `admit`… */
  action: string;
  /** What it was done to: a ballot id, a write-in name, a tile; NULL when the whole survey. */
  subject: string | null;
  /** Why, in the operator's words (`--why`, `--note`). */
  reason: string | null;
  /** What changed, as JSON: counts and ids, never a voter's answers. */
  details: string | null;
}

/** A stored audit entry. */
export type AuditRow = Selectable<AuditLogTable>;
/** An audit entry to store. */
export type NewAuditRow = Insertable<AuditLogTable>;
