import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never against today's table types.

/**
 * Indexes for the console's write-ins page: the ballots a group of write-ins came from, found by
 * sub-category and spelling (the table was keyed by ballot alone, so each group read every
 * write-in); and a nominee's nominations in a sub-category, counted for the count before and
 * after an attachment without reading every nomination.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('write_ins_spelling').on('write_ins').columns(['category_group', 'subcategory', 'name', 'ballot_id']).execute();
  await db.schema.createIndex('nominations_nominee').on('nominations').columns(['nominee_id', 'category_group', 'subcategory']).execute();
}

/** Drops them. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('nominations_nominee').ifExists().execute();
  await db.schema.dropIndex('write_ins_spelling').ifExists().execute();
}
