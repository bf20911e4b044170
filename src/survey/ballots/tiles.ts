import type { SurveyConfig, Tile } from '../config/config.struct.ts';
import { allFields } from '../config/layout.ts';
import { isKind, type TypesOfKind } from '../config/fields.ts';

/** The two kinds of reservation section (docs/spec.md, "Reservations"): a field's type names its kind, as the field table says. */
export type ReservationKind = TypesOfKind<'reservation'>;

/** How long an Experts reservation holds, as the Experts text promises: five days. */
export const EXPERT_HOLD_MS = 5 * 24 * 60 * 60 * 1000;

/** A tile's identifier in a ballot and in look-ups: its `slug`, else its title in lower-case words joined by dashes. */
export function tileSlug(tile: Pick<Tile, 'title' | 'slug'>): string {
  if (tile.slug) return tile.slug;
  return tile.title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The tiles a reservation section offers. */
export function tilesFor(config: Pick<SurveyConfig, 'faces' | 'asktheexpert'>, kind: ReservationKind): Tile[] {
  return kind === 'faces' ? config.faces : config.asktheexpert;
}

/** The slugs the survey configuration itself marks taken (`taken: true`). */
export function configTakenSlugs(config: Pick<SurveyConfig, 'faces' | 'asktheexpert'>, kind: ReservationKind): string[] {
  return tilesFor(config, kind)
    .filter((tile) => tile.taken)
    .map(tileSlug);
}

/** The past participants a section lists under its tiles. */
export function confirmedFor(config: Pick<SurveyConfig, 'faces_past_participants' | 'asktheexpert_past_experts'>, kind: ReservationKind): string[] {
  return kind === 'faces' ? config.faces_past_participants : config.asktheexpert_past_experts;
}

/** A tile as a page shows it: named by its slug, with the title it reads (in the page's language) and whether the survey marks it taken. */
export interface TileView {
  slug: string;
  title: string;
  taken: boolean;
}

/** The tiles of a section as a page shows them, each named by tileSlug() so the browser and the server agree. */
export function tileViews(config: Pick<SurveyConfig, 'faces' | 'asktheexpert' | 'tile_labels'>, kind: ReservationKind): TileView[] {
  return tilesFor(config, kind).map((tile) => ({ slug: tileSlug(tile), title: config.tile_labels?.[tile.title] ?? tile.title, taken: Boolean(tile.taken) }));
}

/**
 * What the thank-you page needs to word a reservation's outcome: the field's kind and its
 * tiles' titles by slug (made at build time by outcomeFields(), below).
 */
export interface OutcomeField {
  field: string;
  kind: ReservationKind;
  titles: Record<string, string>;
}

/** The reservation fields of a survey with their tiles' titles by slug, for the thank-you page's outcomeLine(). */
export function outcomeFields(config: Pick<SurveyConfig, 'layout' | 'faces' | 'asktheexpert' | 'tile_labels'>): OutcomeField[] {
  return allFields(config.layout).flatMap((field) =>
    isKind(field, 'reservation')
      ? [{ field: field.name, kind: field.type, titles: Object.fromEntries(tileViews(config, field.type).map((tile) => [tile.slug, tile.title])) }]
      : [],
  );
}
