import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { LinkOpenRow } from '../db/tables/link-opens.table.ts';

/** Records one opening of a personal link, by the hash of its secret: first time kept, last time and count moved on. One upsert. */
export async function noteLinkOpen(db: Kysely<Database>, projectId: string, secretHash: string, now: Date): Promise<void> {
  const at = now.toISOString();
  await db
    .insertInto('link_opens')
    .values({ project_id: projectId, secret_hash: secretHash, first_opened_at: at, last_opened_at: at, opens: 1 })
    .onConflict((conflict) =>
      conflict.columns(['project_id', 'secret_hash']).doUpdateSet((eb) => ({ last_opened_at: at, opens: eb('link_opens.opens', '+', 1) })),
    )
    .execute();
}

/** Every recorded link opening of a survey, by secret hash. */
export async function linkOpens(db: Kysely<Database>, projectId: string): Promise<Map<string, LinkOpenRow>> {
  const rows = await db.selectFrom('link_opens').selectAll().where('project_id', '=', projectId).execute();
  return new Map(rows.map((row) => [row.secret_hash, row]));
}
