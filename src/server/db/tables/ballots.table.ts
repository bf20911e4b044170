import type { Insertable, Selectable } from 'kysely';

/** How a ballot reached the API: the public link, a personal secret link, or the demo secret. */
export type BallotLink = 'public' | 'personal' | 'demo';

/**
 * `ballots`: one row per received ballot. At most one CURRENT ballot (replaced_by NULL) per
 * (project_id, personal_secret) and per (project_id, verified_email); NULLs never clash.
 */
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
  /** The later ballot of the same voter that took this one's place; NULL while this one is current. */
  replaced_by: string | null;
  /** When it was replaced (ISO 8601 UTC); NULL while current. */
  replaced_at: string | null;
  /** The address the voter proved with a mailed code (`verify: email` or `roster`); NULL otherwise. */
  verified_email: string | null;
  /** Whole seconds from the ballot form becoming usable to Submit, as the page measured them (at most a day); NULL when posted without the page. */
  fill_seconds: number | null;
  /**
   * The receipt page's address for a receipt by mail this ballot is owed and that the API's outbox
   * has not queued yet (`mail.receipt: true`); NULL when none is owed, or once it is queued.
   */
  receipt_mail_due: string | null;
}

/** A stored ballot. */
export type BallotRow = Selectable<BallotsTable>;
/** A ballot to store. */
export type NewBallot = Insertable<BallotsTable>;

/** `answers`: a ballot's answers to its layout fields, one row per value (a checkbox has one per ticked option). */
export interface AnswersTable {
  ballot_id: string;
  /** The layout field's name; a checkbox's 'Other' text is under `{name}[other-answer]`. */
  field: string;
  position: number;
  value: string;
}

/** A stored answer. */
export type AnswerRow = Selectable<AnswersTable>;
/** An answer to store. */
export type NewAnswer = Insertable<AnswersTable>;

/** `nominations`: a ballot's filled nomination slots. One nominee appears once per sub-category of a ballot. */
export interface NominationsTable {
  ballot_id: string;
  category_group: string;
  subcategory: string;
  /** 1 … votes_per_category. */
  slot: number;
  nominee_id: string;
}

/** A stored nomination. */
export type NominationRow = Selectable<NominationsTable>;
/** A nomination to store. */
export type NewNomination = Insertable<NominationsTable>;

/** `write_ins`: names a voter typed because the nominee list lacked them; processed by hand. */
export interface WriteInsTable {
  ballot_id: string;
  /** 0, 1, … in the order the voter added them. */
  position: number;
  name: string;
  /** The name folded as write-ins are grouped (src/survey/nominees/name-key.ts): "Dr. José  Wu" → "jose wu". */
  name_key: string;
  category_group: string;
  subcategory: string;
}

/** A stored write-in. */
export type WriteInRow = Selectable<WriteInsTable>;
/** A write-in to store. */
export type NewWriteIn = Insertable<WriteInsTable>;

/** `uploads`: files sent with ballots, stored under `id` in the uploads folder and never served publicly. */
export interface UploadsTable {
  /** The stored file's random name, e.g. `3f0c…e1.pdf`. */
  id: string;
  ballot_id: string;
  field: string;
  /** The name the voter's file had; for display only, never used as a path. */
  original_name: string;
  /** The type read from the file's first bytes. */
  content_type: string;
  size: number;
  created_at: string;
}

/** A stored upload. */
export type UploadRow = Selectable<UploadsTable>;
/** An upload to store. */
export type NewUpload = Insertable<UploadsTable>;

/**
 * `ballot_days`: ballots stored per survey and day (UTC), counted in each ballot's transaction.
 * A day's count is spread over a few rows (`shard`, drawn at random) so that ballots arriving
 * together on PostgreSQL do not all wait on one row; a reader adds them up.
 */
export interface BallotDaysTable {
  project_id: string;
  /** YYYY-MM-DD, the ballot's `created_at` day. */
  day: string;
  shard: number;
  ballots: number;
}
