import { loadAllSurveys, loadSite } from './loader.ts';
import { toPublicSurvey, type PublicSurvey } from './public.ts';
import type { SiteConfig } from './config.struct.ts';

/** What every survey page is rendered from: the survey without private data, and the site settings. */
export interface SurveyPageProps {
  survey: PublicSurvey;
  site: SiteConfig;
}

/** One static path per survey folder, for `getStaticPaths`; a broken survey file fails the build here. */
export function surveyStaticPaths(): Array<{ params: { slug: string }; props: SurveyPageProps }> {
  const site = loadSite();
  return loadAllSurveys().map(({ slug, config }) => ({
    params: { slug },
    props: { survey: toPublicSurvey(slug, config), site },
  }));
}
