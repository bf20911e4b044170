import type { Selectable } from 'kysely';

/**
 * `people`: a survey's invited people, one row per personal link, keyed by a SHA-256 of the
 * secret so that a lookup needs no secret in the clear. The secret itself is kept sealed
 * (AES-256-GCM under a key derived from the server's secret, outside the database), for the
 * commands that print or mail links; `person` holds the roster's values as JSON.
 */
export interface PeopleTable {
  project_id: string;
  /** Hex SHA-256 of the secret. */
  secret_hash: string;
  /** The secret, sealed (src/server/people/people.repository.ts). */
  sealed_secret: string;
  /** The person's `email`, trimmed and in lower case, or '': verified voters are found by it. */
  email_key: string;
  /** The person's licence number as compared (the survey's `license_field`), or ''. */
  licence_key: string;
  /** The person's place in the prepopulation file, from 0. */
  position: number;
  /** The person's values (email, name, nominee_id, prepopulated fields, roster columns), as JSON. */
  person: string;
}

/** Where each survey's people were last read from: the digest of the source the table holds. */
export interface PeopleSourcesTable {
  project_id: string;
  /** Hex SHA-256 of the license field and the prepopulation's text (src/server/people/people-import.ts). */
  digest: string;
  imported_at: string;
}

/** A stored person. */
export type PersonRow = Selectable<PeopleTable>;
