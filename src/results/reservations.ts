import type { Kysely } from 'kysely';
import type { Database } from '../server/db/schema.ts';
import type { SurveyConfig } from '../survey/config/config.struct.ts';
import { configTakenSlugs, tileSlug, tilesFor, type ReservationKind } from '../survey/ballots/tiles.ts';
import { tileLabel } from '../survey/ballots/reservation-outcome.ts';
import { confirmTile, releaseTile } from '../server/reservations/decisions.repository.ts';
import { OperatorError } from './operator.ts';
import { quoted } from '../survey/errors.ts';

/** The words an operator may use for a kind of tile. */
const KINDS: Record<string, ReservationKind> = { faces: 'faces', face: 'faces', experts: 'asktheexpert', expert: 'asktheexpert', asktheexpert: 'asktheexpert' };

/** What the operator asks: which tile of which kind, by whom, and for a confirmation the text the confirmed list shows. */
export interface TileRequest {
  kind: string;
  tile: string;
  by: string;
  label?: string;
  now?: Date;
  /** Why, for the audit trail. */
  why?: string;
}

/** Finds the tile a request names, by slug or title; throws an OperatorError naming the tiles there are. */
function findTile(config: SurveyConfig, request: TileRequest): { kind: ReservationKind; slug: string; title: string } {
  const kind = KINDS[request.kind.toLowerCase()];
  if (!kind) throw new OperatorError(`${quoted(request.kind)} is not a kind of reservation; use faces or experts.`);
  const tiles = tilesFor(config, kind);
  const wanted = request.tile.trim();
  const tile = tiles.find((t) => tileSlug(t) === wanted || t.title === wanted);
  if (!tile)
    throw new OperatorError(
      `${config.project_id} has no ${kind === 'faces' ? 'Faces' : 'Experts'} tile "${wanted}"; the tiles are ${tiles.map(tileSlug).join(', ') || 'none'}.`,
    );
  return { kind, slug: tileSlug(tile), title: tile.title };
}

/**
 * Confirms the ballot holding a tile: its hold no longer expires, and the look-up's confirmed
 * list shows the label (by default "THE FACE OF {title}", or the expert question).
 */
export async function confirmReservation(db: Kysely<Database>, config: SurveyConfig, request: TileRequest) {
  const { kind, slug, title } = findTile(config, request);
  const label = request.label?.trim() || tileLabel(kind, title);
  const claim = await confirmTile(db, {
    projectId: config.project_id,
    kind,
    tile: slug,
    by: request.by,
    now: request.now ?? new Date(),
    label,
    why: request.why,
  });
  if (!claim)
    throw new OperatorError(
      `No ballot holds the ${kind === 'faces' ? 'Faces' : 'Experts'} tile "${slug}" now${kind === 'asktheexpert' ? ' (an Experts hold lasts five days)' : ''}; nothing to confirm.`,
    );
  return { kind, slug, label, ballotId: claim.ballot_id };
}

/** Releases a tile: the ballot holding it lets go, the tile leaves the confirmed list and the next ballot may take it. */
export async function releaseReservation(db: Kysely<Database>, config: SurveyConfig, request: TileRequest) {
  const { kind, slug } = findTile(config, request);
  if (configTakenSlugs(config, kind).includes(slug))
    throw new OperatorError(`The tile ${quoted(slug)} is marked taken in survey.yaml; remove "taken: true" there to free it.`);
  const claim = await releaseTile(db, { projectId: config.project_id, kind, tile: slug, by: request.by, now: request.now ?? new Date(), why: request.why });
  return { kind, slug, ballotId: claim?.ballot_id };
}
