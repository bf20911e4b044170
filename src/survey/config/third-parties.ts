import type { PublicSurvey } from './public.ts';

/** Google Analytics 4: the tag's script and where it sends page views and events. */
export const GA4 = {
  script: (id: string) => `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(id)}`,
  sources: {
    'script-src': ['https://www.googletagmanager.com'],
    'connect-src': ['https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://*.googletagmanager.com'],
    'img-src': ['https://*.google-analytics.com', 'https://*.googletagmanager.com'],
  },
} as const;

/** The Facebook (Meta) pixel's script and its beacon host. */
export const FACEBOOK_PIXEL = {
  script: 'https://connect.facebook.net/en_US/fbevents.js',
  sources: {
    'script-src': ['https://connect.facebook.net'],
    'connect-src': ['https://www.facebook.com'],
    'img-src': ['https://www.facebook.com'],
  },
} as const;

/** LinkedIn's Insight Tag script and its beacon host. */
export const LINKEDIN_INSIGHT = {
  script: 'https://snap.licdn.com/li.lms-analytics/insight.min.js',
  sources: {
    'script-src': ['https://snap.licdn.com'],
    'connect-src': ['https://px.ads.linkedin.com'],
    'img-src': ['https://px.ads.linkedin.com'],
  },
} as const;

/**
 * Google's website translator: its loader calls `callback` once it has loaded the rest.
 * It injects its own styles and banner, so a survey that enables it allows inline styles.
 */
export const GOOGLE_TRANSLATE = {
  script: (callback: string) => `https://translate.google.com/translate_a/element.js?cb=${callback}`,
  sources: {
    'script-src': ['https://translate.google.com', 'https://translate.googleapis.com', 'https://translate-pa.googleapis.com'],
    'style-src': ["'unsafe-inline'", 'https://www.gstatic.com', 'https://translate.googleapis.com'],
    'connect-src': ['https://translate.googleapis.com', 'https://translate-pa.googleapis.com'],
    'img-src': ['https://www.gstatic.com', 'https://translate.google.com', 'https://translate.googleapis.com', 'https://www.google.com'],
    'frame-src': ['https://translate.google.com', 'https://translate.googleapis.com'],
  },
} as const;

/** How long after the page has loaded the translate widget starts (docs/spec.md, "The survey page"). */
export const TRANSLATE_DELAY_MS = 2000;

/** A survey's third parties as a page starts them: only what is configured is present. */
export interface ThirdPartyConfig {
  analyticsId?: string;
  facebookPixel?: string;
  linkedinPartnerId?: string;
  translate?: true;
}

/** The third parties a survey configures, or undefined when it configures none. */
export function thirdPartyConfig(
  survey: Pick<PublicSurvey, 'analytics_id' | 'facebook_pixel' | 'linkedin_insights' | 'enable_google_translate' | 'welcome'>,
): ThirdPartyConfig | undefined {
  const config: ThirdPartyConfig = {
    ...(survey.analytics_id && { analyticsId: survey.analytics_id }),
    ...(survey.facebook_pixel && { facebookPixel: survey.facebook_pixel }),
    ...(survey.linkedin_insights && { linkedinPartnerId: survey.linkedin_insights }),
    // The widget lives in the welcome block, which is shown only when the survey has a welcome text.
    ...(survey.enable_google_translate && survey.welcome && { translate: true as const }),
  };
  return Object.keys(config).length ? config : undefined;
}

/** A CSP directive name → the sources it adds. */
export type CspSources = Partial<Record<string, readonly string[]>>;

function originOf(url: string | undefined): string | undefined {
  return url && /^https?:\/\//.test(url) ? new URL(url).origin : undefined;
}

/** Where the browser sends Sentry events: the tunnel when one is set, else the DSN's host. */
function sentryOrigin(dsn: string | undefined, tunnel?: string): string | undefined {
  if (!dsn) return undefined;
  return tunnel ? originOf(tunnel) : originOf(dsn);
}

/**
 * What a survey's pages may load besides their own origin: the images its configuration names
 * on other hosts, the survey API and Algolia when they are elsewhere, the error-reporting host,
 * and each configured third party. Nothing configured adds nothing.
 */
export function surveyCspSources(
  survey: Pick<PublicSurvey, 'publication_logo' | 'welcome_splash' | 'categories' | 'algolia_app_id' | 'algolia_api_key' | 'algolia_index'> &
    Parameters<typeof thirdPartyConfig>[0],
  env: { apiUrl?: string; sentryDsn?: string; sentryTunnel?: string } = {},
): CspSources {
  const sources: Record<string, Set<string>> = {};
  const add = (more: CspSources) => {
    for (const [directive, list] of Object.entries(more)) for (const source of list ?? []) (sources[directive] ??= new Set()).add(source);
  };
  const ads = Object.values((survey.categories as Record<string, unknown>).ADS ?? {}).flat() as string[];
  for (const image of [survey.publication_logo, survey.welcome_splash, ...ads]) {
    const origin = originOf(image);
    if (origin) add({ 'img-src': [origin] });
  }
  const api = originOf(env.apiUrl);
  // The ballot form (docs/api.md, "A ballot without JavaScript") and the receipt check's form post there too, so that
  // both work as plain HTML when their scripts do not run.
  if (api) add({ 'connect-src': [api], 'form-action': [api] });
  // Algolia's search hosts, and its Insights host for the click and conversion events of picks.
  if (survey.algolia_app_id && survey.algolia_api_key && survey.algolia_index)
    add({ 'connect-src': ['https://*.algolia.net', 'https://*.algolianet.com', 'https://insights.algolia.io'] });
  const sentry = sentryOrigin(env.sentryDsn, env.sentryTunnel);
  if (sentry) add({ 'connect-src': [sentry] });
  const parties = thirdPartyConfig(survey);
  if (parties?.analyticsId) add(GA4.sources);
  if (parties?.facebookPixel) add(FACEBOOK_PIXEL.sources);
  if (parties?.linkedinPartnerId) add(LINKEDIN_INSIGHT.sources);
  if (parties?.translate) add(GOOGLE_TRANSLATE.sources);
  return Object.fromEntries(Object.entries(sources).map(([directive, set]) => [directive, [...set]]));
}

/**
 * The directives every page starts from: its own origin only, no plugins, no frames, no
 * `<base>` or form posts elsewhere.
 */
const BASE_DIRECTIVES: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'font-src': ["'self'"],
  'frame-src': ["'none'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
};

/**
 * A page's policy as directive → sources: the base plus `extra` ('none' gives way to any
 * source added). Astro adds the hashes of the scripts and styles it inlines to `script-src`
 * and `style-src` (src/layouts/SurveyLayout.astro hands these over to it).
 */
export function pagePolicy(extra: CspSources = {}): Record<string, string[]> {
  const policy: Record<string, string[]> = {};
  for (const [directive, base] of Object.entries(BASE_DIRECTIVES)) {
    const added = extra[directive] ?? [];
    const merged = [...new Set([...base, ...added])];
    policy[directive] = added.length ? merged.filter((source) => source !== "'none'") : merged;
  }
  for (const [directive, added] of Object.entries(extra)) policy[directive] ??= [...new Set(added)];
  return policy;
}
