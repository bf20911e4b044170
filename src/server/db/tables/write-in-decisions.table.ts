import type { Insertable, Selectable } from 'kysely';

/** What an operator decided about a write-in: count it for a listed nominee, for a new nominee, or not at all; or take back the decision before (`undo`). */
export type WriteInAction = 'merge' | 'new' | 'reject' | 'undo';

/**
 * `write_in_decisions`: an operator's decisions on write-ins, never updated or deleted. A write-in
 * is known by its normalised name and sub-category; the latest decision for it is in force and
 * the earlier ones are its audit trail, each with who decided and when.
 */
export interface WriteInDecisionsTable {
  /** A UUIDv7: decisions sort by it in the order they were made. */
  id: string;
  project_id: string;
  /** The write-in's name folded as `nameKey` folds it (src/survey/nominees/name-key.ts): "Dr. José  Wu" → "jose wu". */
  name_key: string;
  category_group: string;
  subcategory: string;
  action: WriteInAction;
  /** The nominee the write-in counts for (`merge`, `new`); NULL for `reject` and `undo`. */
  nominee_id: string | null;
  /** A new nominee's name and details, as they will be added to the nominee file (`new` only). */
  nominee_name: string | null;
  nominee_specialty: string | null;
  nominee_practice: string | null;
  nominee_city: string | null;
  note: string | null;
  decided_by: string;
  /** ISO 8601 UTC. */
  decided_at: string;
}

/** A stored decision. */
export type WriteInDecisionRow = Selectable<WriteInDecisionsTable>;
/** A decision to store. */
export type NewWriteInDecision = Insertable<WriteInDecisionsTable>;
