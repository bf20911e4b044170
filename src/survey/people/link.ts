import type { SurveyConfig } from '../config/config.struct.ts';
import { intlLocale, m } from '../../i18n/messages.ts';

/** The secret that opens any survey as a demonstration, prepopulated or not (docs/spec.md, "Links"). */
export const DEMO_SECRET = 'demo';

/** What a visitor's link leads to. `form` is the ballot; the others are the link states of docs/spec.md, "Links". */
export type LinkState = 'form' | 'invalid' | 'expired' | 'old-browser' | 'checking';

/** Path segments under a survey that are pages, not secrets. */
const PAGE_SEGMENTS = ['thankyou', 'receipt', 'stats', 'workplace-stats', 'personal-link', 'index.html', 'results'] as const;

/** True once the survey's expiration_date has passed at `now`. A bare date means the end of that day, UTC. */
export function isExpired(config: Pick<SurveyConfig, 'expiration_date'>, now: number = Date.now()): boolean {
  const end = expirationTime(config);
  return end !== undefined && now > end;
}

/** The last moment (ms) a survey is open; undefined when it never expires. A bare date means the end of that day, UTC. */
export function expirationTime(config: Pick<SurveyConfig, 'expiration_date'>): number | undefined {
  if (!config.expiration_date) return undefined;
  const bareDate = /^\d{4}-\d{2}-\d{2}$/.test(config.expiration_date);
  return Date.parse(bareDate ? `${config.expiration_date}T23:59:59.999Z` : config.expiration_date);
}

/** When the survey closes, as people read it: "31 January 2025", or "31 December 2099 at 23:59 UTC" for a full time. */
export function closingText(config: Pick<SurveyConfig, 'expiration_date'>): string | undefined {
  if (!config.expiration_date) return undefined;
  const bareDate = /^\d{4}-\d{2}-\d{2}$/.test(config.expiration_date);
  const time = Date.parse(bareDate ? `${config.expiration_date}T00:00:00Z` : config.expiration_date);
  if (Number.isNaN(time)) return undefined;
  const date = new Intl.DateTimeFormat(intlLocale('en-GB'), { dateStyle: 'long', timeZone: 'UTC' }).format(time);
  if (bareDate) return date;
  const clock = new Intl.DateTimeFormat(intlLocale('en-GB'), { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' }).format(time);
  return m.state_closing_time({ date, time: clock });
}

/**
 * Link validity (docs/spec.md, "Links"): without a secret the public link is valid only when blank
 * surveys are allowed; a secret must be a prepopulation key or the demo secret.
 */
export function isLinkValid(config: Pick<SurveyConfig, 'blank_surveys'>, secret: string | undefined, isKnownSecret: (secret: string) => boolean): boolean {
  if (!secret) return config.blank_surveys;
  return secret === DEMO_SECRET || isKnownSecret(secret);
}

/** The state a link leads to at `now`: expiry first, then link validity. */
export function linkState(
  config: Pick<SurveyConfig, 'blank_surveys' | 'expiration_date'>,
  secret: string | undefined,
  isKnownSecret: (secret: string) => boolean,
  now: number = Date.now(),
): LinkState {
  if (isExpired(config, now)) return 'expired';
  return isLinkValid(config, secret, isKnownSecret) ? 'form' : 'invalid';
}

/** Reads the secret from a personal link's path, `/{slug}/{secret}`; undefined on the public link or a page. */
export function secretFromPath(pathname: string, slug: string): string | undefined {
  // A further language's address starts with it: `/es/{slug}/{secret}`.
  const match = new RegExp(`^(?:/[a-z]{2,3}(?:-[A-Za-z0-9]+)?)?/${slug}/([^/]+)/?$`).exec(pathname);
  if (!match) return undefined;
  const segment = decodeURIComponent(match[1]);
  return (PAGE_SEGMENTS as readonly string[]).includes(segment) ? undefined : segment;
}
