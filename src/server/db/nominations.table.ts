import type { Insertable, Selectable } from 'kysely';

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
