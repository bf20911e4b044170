import type { Insertable, Selectable } from 'kysely';

/**
 * `tile_claims`: who holds each tile. The primary key (project_id, kind, tile) lets exactly one
 * ballot hold a tile; an Experts claim carries `expires_at` and is deleted by the next claim
 * after it, in that claim's transaction. Faces claims never expire (`expires_at` NULL).
 */
export interface TileClaimsTable {
  project_id: string;
  kind: string;
  tile: string;
  ballot_id: string;
  claimed_at: string;
  expires_at: string | null;
}

/** A stored claim. */
export type TileClaimRow = Selectable<TileClaimsTable>;
/** A claim to store. */
export type NewTileClaim = Insertable<TileClaimsTable>;
