import type { Insertable, Selectable } from 'kysely';

/** `write_ins`: names a voter typed because the nominee list lacked them; processed by hand. */
export interface WriteInsTable {
  ballot_id: string;
  /** 0, 1, … in the order the voter added them. */
  position: number;
  name: string;
  category_group: string;
  subcategory: string;
}

/** A stored write-in. */
export type WriteInRow = Selectable<WriteInsTable>;
/** A write-in to store. */
export type NewWriteIn = Insertable<WriteInsTable>;
