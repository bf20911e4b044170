import type { Insertable, Selectable } from 'kysely';

/** An operator's hand on a tile: confirmed for its ballot, or released for others to claim. */
export type ReservationAction = 'confirmed' | 'released';

/**
 * `reservation_decisions`: operators' confirmations and releases of Faces and Experts tiles,
 * never updated or deleted; the latest per tile is in force, the earlier ones are the audit trail.
 */
export interface ReservationDecisionsTable {
  /** A UUIDv7: decisions sort by it in the order they were made. */
  id: string;
  project_id: string;
  /** `faces` or `asktheexpert`. */
  kind: string;
  tile: string;
  action: ReservationAction;
  /** The ballot that held the tile when the decision was made; NULL when none did. Not a foreign key: the trail outlives the ballot. */
  ballot_id: string | null;
  /** For a confirmation: the text the confirmed list shows, e.g. "Dr. Jane Roe, THE FACE OF Cardiology 2027". */
  label: string | null;
  decided_by: string;
  /** ISO 8601 UTC. */
  decided_at: string;
}

/** A stored decision. */
export type ReservationDecisionRow = Selectable<ReservationDecisionsTable>;
/** A decision to store. */
export type NewReservationDecision = Insertable<ReservationDecisionsTable>;
