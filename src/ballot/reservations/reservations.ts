import { map } from 'nanostores';

/** A reservation field's choice: a tile's slug, or the voter's own text. */
export interface Reservation {
  tile?: string;
  custom?: string;
}

/** Each reservation field's choice, by field name (`faces`, `asktheexpert`). */
export const $reservations = map<Record<string, Reservation | undefined>>({});

/** Selects a tile; a tile and a custom text exclude each other. */
export function selectTile(field: string, slug: string): void {
  $reservations.setKey(field, { tile: slug });
}

/** Types the custom text; clicking into it clears the selected tile (docs/spec.md, "Reservations"). */
export function setCustomReservation(field: string, text: string): void {
  $reservations.setKey(field, { custom: text });
}
