import { loadSite, loadSurvey } from '../survey/config/loader.ts';

/**
 * The site's statement speaks for the default survey (its header, title and reply address), so it
 * is written in that survey's languages: `/accessibility/` in its default, `/{lang}/accessibility/`
 * in each further one, as the survey's own pages are addressed.
 */

/** The address of the site's statement in `lang`, one of the default survey's `languages`. */
export function siteStatementPath(languages: readonly string[], lang: string): string {
  return !languages.length || lang === languages[0] ? '/accessibility/' : `/${lang}/accessibility/`;
}

/** One static path per further language of the default survey, for src/pages/[lang]/accessibility.astro. */
export function siteStatementStaticPaths(): Array<{ params: { lang: string }; props: { lang: string } }> {
  const { config } = loadSurvey(loadSite().default_survey);
  return config.languages.slice(1).map((lang) => ({ params: { lang }, props: { lang } }));
}
