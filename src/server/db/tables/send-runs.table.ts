import type { Selectable } from 'kysely';

/**
 * `send_runs`: the one `send` run of a survey that may mail its roster now, if any. The run holds
 * it from before it looks at anyone's state until it ends, and says it is alive every few seconds
 * (`renewed_at`); a run that stopped without ending (killed, its machine gone) is let go once its
 * process is seen dead on the same machine, or once it has been silent for a minute.
 */
export interface SendRunsTable {
  project_id: string;
  run_id: string;
  /** The machine and process of the run, to tell a killed run from a live one. */
  host: string;
  pid: number;
  campaign: string;
  started_at: string;
  renewed_at: string;
}

/** A run holding its survey's sending. */
export type SendRunRow = Selectable<SendRunsTable>;
