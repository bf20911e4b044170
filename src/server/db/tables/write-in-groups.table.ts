import type { Selectable } from 'kysely';

/**
 * `write_in_groups`: a survey's write-ins of one folded name in one sub-category, counted as the
 * ballots are stored (demonstration ballots left out), with the decision in force on them, so
 * that the console's queue is read a page at a time from an index rather than grouped per request.
 */
export interface WriteInGroupsTable {
  project_id: string;
  category_group: string;
  subcategory: string;
  /** The folded name, as write_ins.name_key. */
  name_key: string;
  /** A short stable id for addresses and anchors: the first 16 hex digits of the SHA-256 of the three above. */
  id: string;
  /** How many write-ins the group holds. */
  writes: number;
  /** 1 while a decision is in force on the group (merge, new or reject), 0 while it waits. */
  decided: number;
  /** The decision in force (write_in_decisions.id); NULL while the group waits. */
  decision_id: string | null;
  /** The nominee the group counts for; NULL while it waits or when rejected. */
  nominee_id: string | null;
  /** Write-ins stored since the decision in force, which it counted by itself. */
  since_decision: number;
}

/** A group's counts. */
export type WriteInGroupRow = Selectable<WriteInGroupsTable>;

/** `write_in_spellings`: each spelling of a group and how often voters wrote it. */
export interface WriteInSpellingsTable {
  project_id: string;
  category_group: string;
  subcategory: string;
  name_key: string;
  /** The write-in as voters wrote it. */
  name: string;
  writes: number;
}
