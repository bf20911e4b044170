import type { Kysely } from 'kysely';
import type { Database } from './db/schema.ts';

let lastPurge = 0;

/**
 * Counts one request of a client in the current fixed window and returns the count so far and
 * when the window ends. One upsert, so concurrent requests on any number of instances count
 * exactly. Rows of past windows are purged at most once a window per process.
 */
export async function countRequest(db: Kysely<Database>, client: string, now: Date, windowMs: number): Promise<{ hits: number; resetAt: number }> {
  const window = Math.floor(now.getTime() / windowMs);
  const row = await db
    .insertInto('rate_limits')
    .values({ client, window_number: window, hits: 1 })
    .onConflict((conflict) =>
      conflict.column('client').doUpdateSet((eb) => ({
        hits: eb
          .case()
          .when('rate_limits.window_number', '=', window)
          .then(eb('rate_limits.hits', '+', 1))
          .else(1)
          .end(),
        window_number: window,
      })),
    )
    .returning('hits')
    .executeTakeFirstOrThrow();
  if (now.getTime() - lastPurge > windowMs) {
    lastPurge = now.getTime();
    await db.deleteFrom('rate_limits').where('window_number', '<', window).execute();
  }
  return { hits: Number(row.hits), resetAt: (window + 1) * windowMs };
}
