import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { appendAudit, type AuditEntry } from '../db/audit.repository.ts';
import type { ReservationDecisionRow } from '../db/tables/reservation-decisions.table.ts';
import type { TileClaimRow } from '../db/tables/tile-claims.table.ts';
import { uuidv7 } from '../ids.ts';

/** Which tile an operator acts on, who they are and when. */
export interface TileDecision {
  projectId: string;
  kind: string;
  tile: string;
  by: string;
  now: Date;
  /** Why, in the operator's words, for the audit trail. */
  why?: string;
}

/** The claim on a tile, if a ballot holds one (an expired Experts claim included: it is deleted only by the next claim). */
async function findClaim(db: Kysely<Database>, projectId: string, kind: string, tile: string): Promise<TileClaimRow | undefined> {
  return db.selectFrom('tile_claims').selectAll().where('project_id', '=', projectId).where('kind', '=', kind).where('tile', '=', tile).executeTakeFirst();
}

/**
 * Confirms the ballot that holds a tile: its claim no longer expires, and the confirmed list
 * shows `label`. In one transaction with the audit row. Returns the claim, or undefined (and
 * changes nothing) when no ballot holds the tile at `now`.
 */
export async function confirmTile(db: Kysely<Database>, decision: TileDecision & { label: string }): Promise<TileClaimRow | undefined> {
  return db.transaction().execute(async (trx) => {
    const claim = await findClaim(trx, decision.projectId, decision.kind, decision.tile);
    if (!claim || (claim.expires_at !== null && claim.expires_at <= decision.now.toISOString())) return undefined;
    await trx
      .updateTable('tile_claims')
      .set({ expires_at: null })
      .where('project_id', '=', decision.projectId)
      .where('kind', '=', decision.kind)
      .where('tile', '=', decision.tile)
      .execute();
    await recordDecision(trx, decision, 'confirmed', claim.ballot_id, decision.label);
    return claim;
  });
}

/**
 * Releases a tile: the claim on it is deleted, so the next ballot may take it, and the tile
 * leaves the confirmed list. In one transaction with the audit row. Returns the claim it
 * deleted, if any.
 */
export async function releaseTile(db: Kysely<Database>, decision: TileDecision): Promise<TileClaimRow | undefined> {
  return db.transaction().execute(async (trx) => {
    const claim = await findClaim(trx, decision.projectId, decision.kind, decision.tile);
    await trx
      .deleteFrom('tile_claims')
      .where('project_id', '=', decision.projectId)
      .where('kind', '=', decision.kind)
      .where('tile', '=', decision.tile)
      .execute();
    await recordDecision(trx, decision, 'released', claim?.ballot_id ?? null, null);
    return claim;
  });
}

/**
 * Writes a decision on a tile and its line in the audit trail, in the caller's transaction:
 * `confirm-reservation` with the ballot and the label shown, or `release-reservation` with the ballot.
 */
async function recordDecision(
  trx: Kysely<Database>,
  decision: TileDecision,
  action: ReservationDecisionRow['action'],
  ballotId: string | null,
  label: string | null,
): Promise<void> {
  await trx
    .insertInto('reservation_decisions')
    .values({
      id: uuidv7(decision.now.getTime()),
      project_id: decision.projectId,
      kind: decision.kind,
      tile: decision.tile,
      action,
      ballot_id: ballotId,
      label,
      decided_by: decision.by,
      decided_at: decision.now.toISOString(),
    })
    .execute();
  const entry: AuditEntry = {
    projectId: decision.projectId,
    actor: decision.by,
    action: action === 'confirmed' ? 'confirm-reservation' : 'release-reservation',
    subject: `${decision.kind}/${decision.tile}`,
    reason: decision.why,
    details: label === null ? { ballot_id: ballotId } : { ballot_id: ballotId, label },
    now: decision.now,
  };
  await appendAudit(trx, entry);
}

/** The decisions in force for one kind of tile: the latest per tile, by tile. */
async function tileDecisionsInForce(db: Kysely<Database>, projectId: string, kind: string): Promise<Map<string, ReservationDecisionRow>> {
  const rows = await db
    .selectFrom('reservation_decisions')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('kind', '=', kind)
    .orderBy('decided_at')
    .orderBy('id')
    .execute();
  return new Map(rows.map((decision) => [decision.tile, decision]));
}

/** The labels of the tiles confirmed now, in the order they were confirmed. */
export async function confirmedLabels(db: Kysely<Database>, projectId: string, kind: string): Promise<string[]> {
  return [...(await tileDecisionsInForce(db, projectId, kind)).values()]
    .filter((decision) => decision.action === 'confirmed')
    .sort((a, b) => (a.decided_at < b.decided_at ? -1 : a.decided_at > b.decided_at ? 1 : 0))
    .map((decision) => decision.label ?? decision.tile);
}
