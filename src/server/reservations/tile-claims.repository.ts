import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** One ballot's claim on a tile; `holdMs` limits how long it blocks others (Experts), none holds for good (Faces). */
export interface TileClaim {
  projectId: string;
  kind: string;
  tile: string;
  ballotId: string;
  now: Date;
  holdMs?: number;
}

/**
 * Claims a tile inside the ballot's transaction; true when this ballot got it. An expired claim
 * is deleted first, then the insert relies on the primary key: of many ballots claiming one
 * tile at once exactly one row goes in, whatever the timing, on SQLite and PostgreSQL alike.
 */
export async function claimTile(db: Kysely<Database>, claim: TileClaim): Promise<boolean> {
  const now = claim.now.toISOString();
  await db
    .deleteFrom('tile_claims')
    .where('project_id', '=', claim.projectId)
    .where('kind', '=', claim.kind)
    .where('tile', '=', claim.tile)
    .where('expires_at', 'is not', null)
    .where('expires_at', '<=', now)
    .execute();
  const result = await db
    .insertInto('tile_claims')
    .values({
      project_id: claim.projectId,
      kind: claim.kind,
      tile: claim.tile,
      ballot_id: claim.ballotId,
      claimed_at: now,
      expires_at: claim.holdMs === undefined ? null : new Date(claim.now.getTime() + claim.holdMs).toISOString(),
    })
    .onConflict((conflict) => conflict.columns(['project_id', 'kind', 'tile']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** The tiles of one kind that ballots hold at `now`. */
export async function claimedTiles(db: Kysely<Database>, projectId: string, kind: string, now: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('tile_claims')
    .select('tile')
    .where('project_id', '=', projectId)
    .where('kind', '=', kind)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now.toISOString())]))
    .orderBy('tile')
    .execute();
  return rows.map((row) => row.tile);
}
