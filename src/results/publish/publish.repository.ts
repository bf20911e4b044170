import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';

/** Receipts per page read for the salt: small rows, so a large page. */
const PAGE = 5_000;

/**
 * A survey's receipt codes in the order its ballots were received (time, then id), a page at a
 * time by keyset: what a first publication's receipt salt is drawn from.
 */
export async function* receiptCodes(db: Kysely<Database>, projectId: string): AsyncGenerator<Array<string | null>> {
  let after: { created_at: string; id: string } | undefined;
  for (;;) {
    let query = db.selectFrom('ballots').select(['id', 'created_at', 'receipt']).where('project_id', '=', projectId);
    if (after) {
      const { created_at, id } = after;
      query = query.where((eb) => eb.or([eb('created_at', '>', created_at), eb.and([eb('created_at', '=', created_at), eb('id', '>', id)])]));
    }
    const rows = await query.orderBy('created_at').orderBy('id').limit(PAGE).execute();
    if (!rows.length) return;
    yield rows.map((row) => row.receipt);
    after = rows[rows.length - 1];
  }
}
