import type { Insertable, Selectable } from 'kysely';

/** What became of a reservation: the tile was won, lost to another ballot, or the voter wrote their own. */
export type ReservationStatus = 'reserved' | 'lost' | 'custom';

/** `reservations`: what each ballot asked of a Faces or Experts section, and what it got. */
export interface ReservationsTable {
  ballot_id: string;
  /** The layout field's name. */
  field: string;
  /** The field's type: `faces` or `asktheexpert`. */
  kind: string;
  /** The tile's slug; NULL for a custom text. */
  tile: string | null;
  custom_text: string | null;
  status: ReservationStatus;
}

/** A stored reservation. */
export type ReservationRow = Selectable<ReservationsTable>;
/** A reservation to store. */
export type NewReservation = Insertable<ReservationsTable>;
