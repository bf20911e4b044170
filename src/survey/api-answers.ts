import type { Problem } from './errors.ts';

/** What became of one reservation section of a ballot. */
export interface ReservationOutcome {
  field: string;
  /** The tile's slug, or the voter's own text for a custom reservation. */
  tile: string;
  status: 'reserved' | 'lost' | 'custom';
}

/** The 201 answer to `POST /api/survey`: the stored ballot's id and what its reservations got. */
export interface BallotReceipt {
  ballot_id: string;
  reservations: ReservationOutcome[];
}

/** Every 4xx answer of the survey API: a code to branch on, a sentence for people, and each offending field. */
export interface ApiErrorBody {
  error: string;
  message: string;
  problems: Problem[];
}

/** The answer to the Faces and Experts look-ups (SPEC.md §7). */
export interface ReservationLookup {
  taken: string[];
  confirmed: string[];
}
