import { $reporter, type Reporter } from './reporter.ts';
import type { ThirdPartyConfig } from '../survey/config/third-parties.ts';
import { whenInteractive } from './load-script.ts';

/** What a page hands to startThirdParties: the survey's third parties and where the page is. */
export interface PageThirdParties extends ThirdPartyConfig {
  slug: string;
  /** True on a personal link's page, whose address holds a secret. */
  personal: boolean;
}

/** Loads Sentry's reporter once; until then an error waits for it rather than being lost. */
function lazySentryReporter(): Reporter {
  let loading: Promise<Reporter> | undefined;
  const load = () => (loading ??= import('./sentry.client.ts').then((module) => module.reportToSentry));
  void whenInteractive().then(load);
  return async (error, context) => (await load())(error, context);
}

/**
 * Starts what the page is configured with, each from its own chunk once the page is
 * interactive: error reporting (when the build has a Sentry DSN), analytics, the ad pixels
 * and the translate widget. Pixels stay off a personal link's page: their scripts send the
 * page's address, and the address holds the secret.
 */
export async function startThirdParties(page: PageThirdParties): Promise<void> {
  if (import.meta.env.PUBLIC_SENTRY_DSN) $reporter.set(lazySentryReporter());
  await whenInteractive();
  if (page.analyticsId) {
    const location = page.personal ? `${window.location.origin}/${page.slug}/personal-link/` : window.location.href;
    void import('./analytics.ts').then((module) => module.startAnalytics(page.analyticsId!, location));
  }
  if (!page.personal && page.facebookPixel) void import('./pixels.ts').then((module) => module.startFacebookPixel(page.facebookPixel!));
  if (!page.personal && page.linkedinPartnerId) void import('./pixels.ts').then((module) => module.startLinkedInInsight(page.linkedinPartnerId!));
  if (page.translate) void import('./translate.ts').then((module) => module.startTranslate());
}
