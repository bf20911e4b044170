import type { SurveyConfig } from './config.struct.ts';
import { allFields } from './layout.ts';
import { isKind } from './fields.ts';
import type { OutcomeField } from './reservation-outcome.ts';
import { tileViews } from './tiles.ts';

/**
 * The reservation fields of a survey with their tiles' titles by slug, for the thank-you page.
 * Kept apart from reservation-outcome.ts, which the browser loads: this one needs the layout
 * helpers, and with them the config structs.
 */
export function outcomeFields(config: Pick<SurveyConfig, 'layout' | 'faces' | 'asktheexpert'>): OutcomeField[] {
  return allFields(config.layout).flatMap((field) =>
    isKind(field, 'reservation')
      ? [{ field: field.name, kind: field.type, titles: Object.fromEntries(tileViews(config, field.type).map((tile) => [tile.slug, tile.title])) }]
      : [],
  );
}
