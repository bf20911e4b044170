import type { ServerConfig } from './config.ts';

type SentryModule = typeof import('@sentry/astro');

let sentry: Promise<SentryModule> | undefined;

/** Loads and starts Sentry's server SDK once, the first time an error is to be reported. */
function loadSentry(settings: NonNullable<ServerConfig['sentry']>): Promise<SentryModule> {
  sentry ??= import('@sentry/astro').then((Sentry) => {
    Sentry.init({ dsn: settings.dsn, environment: settings.environment, release: settings.release, sendDefaultPii: false, defaultIntegrations: false });
    return Sentry;
  });
  return sentry;
}

/** The request an error happened on, without its query (a personal link's secret travels there). */
function requestContext(request: Request): { method: string; path: string } {
  return { method: request.method, path: new URL(request.url).pathname };
}

/**
 * Reports an error of the survey API: to Sentry when SENTRY_DSN is set (waiting until it is
 * sent, at most two seconds), and to the server's log in any case.
 */
export async function reportServerError(error: unknown, request: Request, config: Pick<ServerConfig, 'sentry'>): Promise<void> {
  const where = requestContext(request);
  console.error(`peervote: ${where.method} ${where.path} failed:`, error);
  if (!config.sentry) return;
  try {
    const Sentry = await loadSentry(config.sentry);
    Sentry.withScope((scope) => {
      scope.setTag('route', where.path);
      scope.setContext('request', where);
      Sentry.captureException(error);
    });
    await Sentry.flush(2000);
  } catch (failure) {
    console.error('peervote: the error could not be reported to Sentry:', failure);
  }
}
