import type { SurveyConfig } from './config.struct.ts';

/** A survey configuration as a page may carry it: everything but the prepopulation map. */
export type PublicSurvey = Omit<SurveyConfig, 'prepopulation'> & { slug: string };

/** Strips what must never reach a browser from a survey configuration. */
export function toPublicSurvey(slug: string, config: SurveyConfig): PublicSurvey {
  const { prepopulation: _private, ...rest } = config;
  return { ...rest, slug };
}

/** The named keys of a public survey: only the part an island needs goes into the page. */
export function pick<K extends keyof PublicSurvey>(survey: PublicSurvey, keys: readonly K[]): Pick<PublicSurvey, K> {
  return Object.fromEntries(keys.map((key) => [key, survey[key]])) as Pick<PublicSurvey, K>;
}

/** The splash image the welcome section shows, if any: the home page's largest paint, which its head preloads. */
export function welcomeSplash(survey: Pick<PublicSurvey, 'welcome' | 'welcome_splash'>): string | undefined {
  return survey.welcome ? survey.welcome_splash : undefined;
}
