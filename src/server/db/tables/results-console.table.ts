import type { Insertable, Selectable } from 'kysely';

/**
 * `results_counts`: each count the console ran, so that its results page shows the last one at
 * once rather than reading every ballot per request. `kind` says why it ran: `count` (an owner's
 * Count), `look` (an early look an approved unseal request gave), `publish` (a publication, which
 * counts as it writes the ledger).
 */
export interface ResultsCountsTable {
  /** A UUIDv7, so that counts sort as they were started. */
  id: string;
  project_id: string;
  kind: 'count' | 'look' | 'publish';
  /** The unseal request a look belongs to; null for the other kinds. */
  request_id: string | null;
  /** `running` until it ends `done` or `failed`; a row left `running` by a server that stopped is taken as abandoned after an hour. */
  status: 'running' | 'done' | 'failed';
  /** ISO 8601 UTC. */
  started_at: string;
  finished_at: string | null;
  /** The operator who started it: their name, and their address in operators.yaml. */
  actor: string;
  actor_email: string;
  /** Every ballot the survey had stored when it began (the days' counters): later ones arrived since. */
  ballots_stored: number;
  /** What the page shows, as JSON (ResultsSummary): the totals, the exclusions and each sub-category's leaders. */
  summary: string | null;
  /** The tally CSV, the very bytes `results tally --out` writes for the same ballots and decisions. */
  tally_csv: string | null;
  /** Why a count failed, in one line. */
  error: string | null;
}

/** `unseal_requests`: an owner's request to see a sealed survey's count before its close, which another owner approves within 24 hours. */
export interface UnsealRequestsTable {
  /** A UUIDv7. */
  id: string;
  project_id: string;
  asked_by: string;
  asked_by_email: string;
  /** Why, in the asker's words. */
  reason: string;
  /** ISO 8601 UTC; `expires_at` is 24 hours after `asked_at`, after which it cannot be approved. */
  asked_at: string;
  expires_at: string;
  approved_by: string | null;
  approved_by_email: string | null;
  approved_at: string | null;
  /** When the asker had the one look the approval gave; null before it. */
  looked_at: string | null;
}

/** A stored count. */
export type ResultsCountRow = Selectable<ResultsCountsTable>;
/** A count to store. */
export type NewResultsCount = Insertable<ResultsCountsTable>;
/** A stored unseal request. */
export type UnsealRequestRow = Selectable<UnsealRequestsTable>;
