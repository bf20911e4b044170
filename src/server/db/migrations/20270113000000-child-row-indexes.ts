import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never against today's table types.

/**
 * Indexes the two tables of a ballot's rows whose key does not begin with the ballot: reading a
 * ballot's uploads (the export, a purge) and its tile claims (a replaced ballot's release) looked
 * at every row of the table, once for each ballot: an export of 20,000 ballots with a file each
 * read the uploads 20,000 times. The uploads' index is in the order a ballot's are read (field, id).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('uploads_ballot').on('uploads').columns(['ballot_id', 'field', 'id']).execute();
  await db.schema.createIndex('tile_claims_ballot').on('tile_claims').column('ballot_id').execute();
}

/** Drops them. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('tile_claims_ballot').ifExists().execute();
  await db.schema.dropIndex('uploads_ballot').ifExists().execute();
}
