import { map } from 'nanostores';
import { apiUrl } from '../../survey/api/api-replies.ts';
import type { ReservationLookup } from '../../survey/api/api-replies.ts';
import type { ReservationKind, TileView } from '../../survey/ballots/tiles.ts';
import { $reservations } from './reservations.ts';
import { $takenTiles } from '../validation.ts';

/** Where a section's look-up stands; `confirmed` lists the past participants or experts it answered. */
export interface Lookup {
  status: 'loading' | 'ready' | 'error';
  confirmed?: string[];
}

/** Each reservation kind's look-up (docs/spec.md, "Reservations"); the taken tiles themselves go to $takenTiles. */
export const $lookups = map<Partial<Record<ReservationKind, Lookup>>>({});

const LOOKUP_PATH: Record<ReservationKind, string> = { faces: 'faces', asktheexpert: 'experts' };

/**
 * Asks the survey API which tiles of a section are taken. The answer may name a tile by its
 * slug or its title; the taken slugs go to $takenTiles, so that the ballot check in the
 * browser agrees with the server, and a tile selected meanwhile that turns out taken is let go.
 */
export async function loadReservations(projectId: string, kind: ReservationKind, field: string, tiles: TileView[]): Promise<void> {
  $lookups.setKey(kind, { status: 'loading' });
  try {
    const response = await fetch(apiUrl(`/api/survey/${LOOKUP_PATH[kind]}/${encodeURIComponent(projectId)}`), { cache: 'no-store', credentials: 'omit' });
    if (!response.ok) throw new Error(`the ${kind} look-up answered ${response.status}`);
    const { taken, confirmed } = (await response.json()) as ReservationLookup;
    const slugs = tiles.filter((tile) => tile.taken || taken.includes(tile.slug) || taken.includes(tile.title)).map((tile) => tile.slug);
    $takenTiles.setKey(kind, slugs);
    if (slugs.includes($reservations.get()[field]?.tile ?? '')) $reservations.setKey(field, undefined);
    $lookups.setKey(kind, { status: 'ready', confirmed });
  } catch (error) {
    console.error(error);
    $lookups.setKey(kind, { status: 'error' });
  }
}
