import type { Selectable } from 'kysely';

/**
 * `ballot_counts`: how many ballots each survey has stored on each day (UTC), kept in the
 * transaction that stores a ballot, so that the console counts a million ballots by reading a
 * few rows. A day's count is spread over a few shards, each ballot adding one to a random one,
 * so that ballots stored at once on PostgreSQL do not queue for one row; a reader adds them up.
 */
export interface BallotCountsTable {
  project_id: string;
  /** The day, as `YYYY-MM-DD` (UTC): the first ten characters of the ballots' `created_at`. */
  day: string;
  /** 0 to BALLOT_COUNT_SHARDS - 1. */
  shard: number;
  ballots: number;
}

/** One shard of a day's count. */
export type BallotCountRow = Selectable<BallotCountsTable>;

/** How many rows a day's count is spread over. */
export const BALLOT_COUNT_SHARDS = 8;
