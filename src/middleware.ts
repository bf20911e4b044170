import { defineMiddleware } from 'astro:middleware';
import { serverConfig } from './server/config.ts';
import { corsHeaders, isSafeMethod, originAllowed, preflight } from './server/origin.ts';
import { refuse } from './server/http.ts';

/**
 * The survey API's origin policy, in place of Astro's `security.checkOrigin` (which cannot let
 * a second origin in): POSTs only from the site's own origin or ALLOWED_ORIGINS, CORS headers
 * and preflights for exactly those. Prerendered pages pass through untouched.
 */
export const onRequest = defineMiddleware(async (context, next) => {
  if (context.isPrerendered || !context.url.pathname.startsWith('/api/')) return next();
  const config = serverConfig();
  const origin = context.request.headers.get('origin');
  if (context.request.method === 'OPTIONS') return preflight(origin, config);
  if (!isSafeMethod(context.request.method) && !originAllowed(origin, context.url.origin, config)) {
    return refuse(403, 'forbidden_origin', 'Ballots are accepted only from the survey site itself.', [{ path: 'Origin', message: origin ? `${origin} is not allowed.` : 'is missing.' }]);
  }
  const response = await next();
  for (const [name, value] of Object.entries(corsHeaders(origin, config))) response.headers.set(name, value);
  return response;
});
