import * as Sentry from '@sentry/astro';
import type { ErrorEvent } from '@sentry/astro';
import { $link } from '../ballot/link.ts';
import type { ErrorContext } from './reporter.ts';

/** Replaces the personal secret wherever it appears in an event (page URL, breadcrumbs of API calls). */
function withoutSecret<T>(event: T): T {
  const secret = $link.get().secret;
  // `demo` opens every survey and is no one's secret; it is also part of many a slug.
  if (!secret || secret === 'demo') return event;
  return JSON.parse(JSON.stringify(event).split(secret).join('[secret]')) as T;
}

/**
 * Sentry in the browser, from the build's PUBLIC_SENTRY_* settings. Loaded only on a build
 * with a DSN (src/third-party/start.ts), after the page is interactive.
 */
Sentry.init({
  dsn: import.meta.env.PUBLIC_SENTRY_DSN,
  environment: import.meta.env.PUBLIC_SENTRY_ENVIRONMENT || undefined,
  release: import.meta.env.PUBLIC_SENTRY_RELEASE || undefined,
  tunnel: import.meta.env.PUBLIC_SENTRY_TUNNEL || undefined,
  sendDefaultPii: false,
  // Errors only: no session (release health) request on every page view.
  integrations: (defaults) => defaults.filter((integration) => integration.name !== 'BrowserSession'),
  beforeSend: (event: ErrorEvent) => withoutSecret(event),
  beforeBreadcrumb: (breadcrumb) => withoutSecret(breadcrumb),
});

/**
 * Reports an error to Sentry with its context: the ballot as an attachment (`ballot.json`,
 * files by name and size only), the voter as the event's user, and the tags. Resolves once
 * sent (at most two seconds), so a page about to leave can wait for it.
 */
export async function reportToSentry(error: unknown, context: ErrorContext): Promise<void> {
  Sentry.withScope((scope) => {
    if (context.user) scope.setUser(context.user);
    if (context.tags) scope.setTags(context.tags);
    if (context.ballot) scope.addAttachment({ filename: 'ballot.json', data: JSON.stringify(context.ballot, null, 2), contentType: 'application/json' });
    Sentry.captureException(error);
  });
  await Sentry.flush(2000);
}
