import type { Insertable, Selectable } from 'kysely';

/** How a ballot reached the API: the public link, a personal secret link, or the demo secret. */
export type BallotLink = 'public' | 'personal' | 'demo';

/** `ballots`: one row per received ballot. At most one per (project_id, personal_secret); NULLs never clash. */
export interface BallotsTable {
  /** A random UUID, the receipt's `ballot_id`. */
  id: string;
  project_id: string;
  link: BallotLink;
  /** The personal link's secret; NULL for the public link and the demo secret. */
  personal_secret: string | null;
  /** ISO 8601 UTC, e.g. 2027-03-01T09:30:00.000Z. */
  created_at: string;
  /** The voter's receipt code: random, unique in the survey; NULL for ballots stored before receipts. */
  receipt: string | null;
  /** Salted hash of the client's address (src/server/intake/signals-salt.ts), for fraud signals; NULL for ballots stored before it was kept. */
  client_hash: string | null;
  /** Salted hash of the client's User-Agent header, likewise. */
  agent_hash: string | null;
}

/** A stored ballot. */
export type BallotRow = Selectable<BallotsTable>;
/** A ballot to store. */
export type NewBallot = Insertable<BallotsTable>;
