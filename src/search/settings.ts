import type { PublicSurvey } from '../survey/public.ts';

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
