import type { FieldDef } from '../survey/config/field.struct.ts';
import type { PublicSurvey } from '../survey/config/public.ts';
import { layoutSegments, type Segment } from '../survey/config/segments.ts';
import { $ballotSurvey, type PageSurvey } from './validation.ts';

/**
 * The survey a ballot page carries once, as data (`data-survey` on the survey's root): the page's
 * code reads it there, and so do the islands, which are handed where their part of it is (the
 * page's key, a segment's index) instead of a copy of it in their props. The ballot page has to
 * fit a phone's first round trip (docs/testing.md): a copy in the props cost it some 800 bytes.
 *
 * While the build renders a page, the page registers its survey under its key (its survey and
 * language) before its islands render, so that pages rendered side by side never mix; in the
 * browser a page has one survey, its data.
 */
const rendered = new Map<string, PageData>();

/** What a ballot page carries of its survey: the ballot's rules and address, and what its islands show. */
export type PageData = PageSurvey & Pick<PublicSurvey, 'category_labels' | 'algolia_app_id' | 'algolia_api_key' | 'algolia_index'>;

/** The key of a ballot page's survey: its slug and the page's language. */
export const pageSurveyKey = (survey: Pick<PageSurvey, 'slug'>, lang: string): string => `${survey.slug}/${lang}`;

/** Registers the survey a page is about to render its islands from (the build, or `astro dev`, on the server). */
export function registerPageSurvey(key: string, survey: PageData): void {
  rendered.set(key, survey);
}

/** The survey of the page under `key`: the one registered while rendering, else the page's own data (written from a PageData). */
export function pageSurvey(key: string): PageData {
  const survey = import.meta.env.SSR ? rendered.get(key) : ($ballotSurvey.get() as PageData | undefined);
  if (!survey) throw new Error(`no survey for ${key}`);
  return survey;
}

/** Each layout's segments, worked out once: an island asks again at each of its renders. */
const segmentsOf = new WeakMap<FieldDef[][], Segment[]>();

function segments(key: string): Segment[] {
  const { layout } = pageSurvey(key);
  let split = segmentsOf.get(layout);
  if (!split) segmentsOf.set(layout, (split = layoutSegments(layout)));
  return split;
}

/** The rows of plain fields of the page's segment `index` (src/survey/config/segments.ts); none for -1, the error summary's own island. */
export function segmentRows(key: string, index: number): FieldDef[][] {
  if (index < 0) return [];
  const segment = segments(key)[index];
  if (segment?.kind !== 'fields') throw new Error(`no fields at ${key} ${index}`);
  return segment.rows;
}

/** The field of the page's segment `index` that stands alone: the nominations. */
export function segmentField(key: string, index: number): FieldDef {
  const segment = segments(key)[index];
  if (segment?.kind !== 'nomination') throw new Error(`no nominations at ${key} ${index}`);
  return segment.field;
}
