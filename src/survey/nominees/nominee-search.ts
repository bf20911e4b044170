import { array, integer, min, object, optional, size, string, type, union, type Infer } from 'superstruct';
import type { Nominee } from './nominee.struct.ts';
import type { PublicSurvey } from '../config/public.ts';

/** Suggestions shown for one query (docs/spec.md, "Nominations"). */
export const HITS_PER_PAGE = 12;

/** How long typing must pause before a search is sent, in milliseconds (docs/spec.md, "Nominations"). */
export const SEARCH_DEBOUNCE_MS = 300;

/** One search hit, shaped as Algolia returns a record: `objectID` beside the nominee's own columns. */
export type NomineeHit = Omit<Nominee, 'license'> & { objectID: string };

/** One query's answer, in the shape of an Algolia search response (the fields the UI and InstantSearch read). */
export interface NomineeResult {
  hits: NomineeHit[];
  nbHits: number;
  page: number;
  nbPages: number;
  hitsPerPage: number;
  query: string;
  params: string;
  index?: string;
  processingTimeMS: number;
  exhaustiveNbHits: boolean;
}

/** The answer to a multi-query search, as Algolia's `POST /1/indexes/{*}/queries` answers. */
export interface NomineeResults {
  results: NomineeResult[];
}

/** The nominee column a slot's sub-category is matched against. */
const SLOT_FILTER_ATTRIBUTE = 'specialty';

/**
 * The ranking hint a slot sends with its query, in Algolia's optionalFilters syntax: nominees
 * whose specialty is the slot's sub-category rank first, the others still follow.
 */
export function slotOptionalFilters(subcategory: string): string[] {
  return [`${SLOT_FILTER_ATTRIBUTE}:${subcategory}`];
}

/** An optionalFilters value as Algolia takes it: a filter, or a list of filters and lists of filters. */
const OptionalFilters = union([size(string(), 0, 200), size(array(union([size(string(), 0, 200), size(array(size(string(), 0, 200)), 0, 10)])), 0, 10)]);

const Params = {
  query: optional(string()),
  page: optional(min(integer(), 0)),
  hitsPerPage: optional(size(integer(), 1, HITS_PER_PAGE)),
  optionalFilters: optional(OptionalFilters),
};

/**
 * The body of `POST /api/search/{projectId}`: Algolia's multi-query body, each request's
 * parameters flat (as algoliasearch v5 sends them) or under `params` (as InstantSearch hands
 * them to a search client). Other Algolia parameters are accepted and ignored.
 */
export const SearchBody = object({
  requests: size(array(type({ indexName: optional(string()), params: optional(type(Params)), ...Params })), 1, 10),
});

/** A search body after validation. */
export type SearchBody = Infer<typeof SearchBody>;

/** The most characters of a query that are searched: no name is longer, and the cost of a search grows with it. */
const MAX_QUERY_LENGTH = 100;

/** The most words of a query that are searched. */
const MAX_QUERY_WORDS = 8;

/** A query cut to what is searched: its first 100 characters, then its first 8 words. */
function boundedQuery(query: string): string {
  return query.slice(0, MAX_QUERY_LENGTH).trim().split(/\s+/).slice(0, MAX_QUERY_WORDS).join(' ');
}

/** The specialty an optionalFilters value prefers: the first `specialty:{value}` filter in it. */
function preferredSpecialty(filters: Infer<typeof OptionalFilters> | undefined): string | undefined {
  const prefix = `${SLOT_FILTER_ATTRIBUTE}:`;
  const found = [filters ?? []].flat(2).find((filter) => filter.startsWith(prefix));
  return (
    found
      ?.slice(prefix.length)
      .replace(/^"(.*)"$/, '$1')
      .trim() || undefined
  );
}

/** The parameters of one request of a search body, flat and nested merged, with defaults; the query bounded. */
export function searchParams(request: SearchBody['requests'][number]): { query: string; page: number; hitsPerPage: number; preferSpecialty?: string } {
  const { params } = request;
  return {
    query: boundedQuery(request.query ?? params?.query ?? ''),
    page: request.page ?? params?.page ?? 0,
    hitsPerPage: request.hitsPerPage ?? params?.hitsPerPage ?? HITS_PER_PAGE,
    preferSpecialty: preferredSpecialty(request.optionalFilters ?? params?.optionalFilters),
  };
}

/** Where a survey's nominee search goes: Algolia when the survey names an index and its keys, else the survey API. */
export interface SearchSettings {
  /** The survey's project_id: the local search endpoint is `/api/search/{projectId}`. */
  projectId: string;
  /** The index to query: the Algolia index, or the project_id for the local search. */
  indexName: string;
  /** Algolia's application id and search-only key, when the survey uses Algolia. */
  algolia?: { appId: string; apiKey: string };
}

/** The search settings of a survey, from its public configuration (the Algolia key there is search-only). */
export function searchSettings(survey: Pick<PublicSurvey, 'project_id' | 'algolia_app_id' | 'algolia_api_key' | 'algolia_index'>): SearchSettings {
  const { project_id: projectId, algolia_app_id: appId, algolia_api_key: apiKey, algolia_index: index } = survey;
  if (appId && apiKey && index) return { projectId, indexName: index, algolia: { appId, apiKey } };
  return { projectId, indexName: projectId };
}
