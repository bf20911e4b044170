import { sql, type Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never against today's table types.

/**
 * Indexes `refused_ballots` for the console's page of them: newest first by keyset on
 * (project_id, id) (an id is a UUIDv7, in the order received), counted in that index alone; and
 * the admitted ones of a survey, few, counted in a partial index of their own (holding
 * `admitted_at`, so that SQLite counts them without reading a row). Until now the table had its
 * primary key (id) and (project_id, fingerprint): a page of one survey read the refusals of
 * every survey, and a count read every row of the survey.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('refused_ballots_page').on('refused_ballots').columns(['project_id', 'id']).execute();
  await db.schema
    .createIndex('refused_ballots_admitted')
    .on('refused_ballots')
    .columns(['project_id', 'admitted_at'])
    .where(sql.ref('admitted_at'), 'is not', null)
    .execute();
}

/** Drops them. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('refused_ballots_admitted').ifExists().execute();
  await db.schema.dropIndex('refused_ballots_page').ifExists().execute();
}
