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
  /** 1 once the person's personal link has a current ballot (set in that ballot's transaction), else 0. */
  responded: number;
  /** The ids of the person's `roster_groups`, one a roster column, space-separated: the groups their first ballot counts in. */
  group_ids: string;
}

/** Where each survey's people were last read from: the digest of the source the table holds. */
export interface PeopleSourcesTable {
  project_id: string;
  /** Hex SHA-256 of the license field and the prepopulation's text (src/server/people/people-import.ts). */
  digest: string;
  imported_at: string;
}

/** The roster columns a survey's people are counted by (src/survey/people/roster-groups.ts), as they were when the people were read. */
export interface RosterColumnsTable {
  project_id: string;
  name: string;
  /** Its place among the survey's columns, from 0. */
  position: number;
  /** How many distinct values its people hold (a blank one included). */
  groups: number;
}

/**
 * `roster_groups`: for each value of each roster column, how many people hold it and how many of
 * them have voted: `invited` written when the people are read, `responded` counted in the
 * transaction of each person's first ballot.
 */
export interface RosterGroupsTable {
  project_id: string;
  /** The group's number in its survey, from 1: what `people.group_ids` holds. */
  id: number;
  column_name: string;
  /** The value ('' for none), its first VALUE_KEPT characters. */
  value: string;
  invited: number;
  responded: number;
}

/** A stored person. */
export type PersonRow = Selectable<PeopleTable>;
