import type { Selectable } from 'kysely';

/**
 * `mail_runs`: a run of invitations or reminders started from the console. It goes on in the
 * server whether or not the page stays open, and resumes after a restart: the process that drives
 * it holds a lease (`lease_owner` on `lease_host`, process `lease_pid`, until `lease_expires_at`),
 * renewed every few seconds; another process takes the run once the lease has run out, or at once
 * when its process is seen dead on the same machine. One run a survey is `running` at a time.
 */
export interface MailRunsTable {
  id: string;
  project_id: string;
  campaign: 'invitation' | 'reminder';
  /** Messages a minute. */
  rate: number;
  /** The site's address, for the links in the messages. */
  base_url: string;
  /** The operator who started it: their name and address. */
  started_by: string;
  started_by_email: string;
  started_at: string;
  /** `running` until it ends: `done` when everyone chosen was handled, `stopped` when it could not go on (the outcome says why). */
  state: 'running' | 'done' | 'stopped';
  /** The people chosen when it first planned, and those it skipped by reason (JSON); null until it has planned. */
  total: number | null;
  skipped: string | null;
  ended_at: string | null;
  /** Its last word: the summary of what it did, or why it stopped. */
  outcome: string | null;
  /** Its messages by status (JSON) once it has ended; null while it runs, when they are counted at each look. */
  counts: string | null;
  lease_owner: string | null;
  lease_host: string | null;
  lease_pid: number | null;
  lease_expires_at: string | null;
}

/** A stored run. */
export type MailRunRow = Selectable<MailRunsTable>;
