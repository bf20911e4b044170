import type { Insertable, Selectable } from 'kysely';

/**
 * `signal_runs`: each look for fraud signals (`results signals`): who ran it, when, with which
 * thresholds, how many ballots it read and what it found, so that the console shows the latest
 * look's counts without reading a million ballots itself.
 */
export interface SignalRunsTable {
  /** A UUIDv7, so that runs sort as they were made. */
  id: string;
  project_id: string;
  /** When the run read the ballots (ISO 8601 UTC). */
  ran_at: string;
  /** Who ran it: `--by`, else the operating system's user. */
  actor: string;
  /** Through what: `command line`. */
  via: string;
  /** The thresholds used, as JSON: option name → value (`{"window":10,…}`). */
  thresholds: string;
  /** Every ballot the survey had stored when the run began (demo and replaced ones included): later ballots arrived since. */
  ballots_stored: number;
  /** The ballots the detectors read (demo ballots left out). */
  ballots_read: number;
  /** The clusters found, and the distinct ballots they name. */
  clusters: number;
  ballots_named: number;
}

/** `signal_run_kinds`: one run's counts for one kind of signal, every kind a row (none found is a count too). */
export interface SignalRunKindsTable {
  run_id: string;
  kind: string;
  /** The kind's place in the detectors' list, for the order a page shows them in. */
  position: number;
  clusters: number;
  ballots_named: number;
}

/** `signal_run_clusters`: one cluster a run found, at its place in the run's list (strongest first, from 0). */
export interface SignalRunClustersTable {
  run_id: string;
  position: number;
  kind: string;
  /** How many times its threshold the evidence is. */
  score: number;
  /** One line: what was seen. */
  evidence: string;
  /** How many ballots it names. */
  ballots: number;
}

/** `signal_run_ballots`: a ballot one cluster of a run names (a ballot id is a UUIDv7, so a cluster's ballots page in the order received). */
export interface SignalRunBallotsTable {
  run_id: string;
  /** The cluster's place in its run. */
  position: number;
  ballot_id: string;
}

/** A stored run. */
export type SignalRunRow = Selectable<SignalRunsTable>;
/** A run to store. */
export type NewSignalRun = Insertable<SignalRunsTable>;
/** A run's counts for one kind, to store. */
export type NewSignalRunKind = Insertable<SignalRunKindsTable>;
