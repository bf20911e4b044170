import type { SurveyConfig } from './config.struct.ts';

/** A survey configuration as a page may carry it: everything but the prepopulation map. */
export type PublicSurvey = Omit<SurveyConfig, 'prepopulation'> & { slug: string };

/** Strips what must never reach a browser from a survey configuration. */
export function toPublicSurvey(slug: string, config: SurveyConfig): PublicSurvey {
  const { prepopulation: _private, ...rest } = config;
  return { ...rest, slug };
}
