import type { Insertable, Selectable } from 'kysely';

/**
 * `ballot_exclusions`: the ballots an operator has taken out of the count (`results exclude`),
 * one row each while excluded; `results include` deletes the row. The history of both is the
 * audit trail, whose entry each row names.
 */
export interface BallotExclusionsTable {
  ballot_id: string;
  project_id: string;
  /** Why, in the operator's words (`--why`). */
  reason: string;
  /** The `audit_log` entry of the exclusion. */
  audit_id: string;
  excluded_by: string;
  /** ISO 8601 UTC. */
  excluded_at: string;
}

/** A ballot excluded by an operator. */
export type BallotExclusionRow = Selectable<BallotExclusionsTable>;
/** An exclusion to store. */
export type NewBallotExclusion = Insertable<BallotExclusionsTable>;
