import { defineMiddleware } from 'astro:middleware';
import type { MiddlewareHandler } from 'astro';
import { localeOf, renderIn } from './i18n/messages.ts';
import { inRequestLanguage } from './server/language.ts';
import { serverConfig } from './server/config.ts';
import { reportServerError } from './server/error-reporting.ts';
import { corsHeaders, isSafeMethod, originAllowed, preflight, sameOriginFormPost } from './server/origin.ts';
import { json, refuse } from './server/http.ts';
import { API_CONTENT_SECURITY_POLICY } from './survey/api/headers.ts';
import { nulProblems } from './survey/ballots/control-characters.ts';
import { refusedMethod } from './server/routes.ts';
import { requestedRoute } from './server/route-handlers.ts';
import { setRequestHooks } from './server/request-hooks.ts';
import { consoleHeaders, guardConsolePage, guardConsoleRoute, isConsolePage, isConsoleRoute } from './server/console/console-guard.ts';

// The test hooks load only in a server started with PEERVOTE_TEST_HOOKS on, before its first API request.
let testHooks: Promise<void> | undefined;

/**
 * The survey API's origin policy, in place of Astro's `security.checkOrigin` (which cannot let
 * a second origin in): POSTs only from the site's own origin or ALLOWED_ORIGINS, CORS headers
 * and preflights for exactly those, on every route (the search's included). An error no endpoint handled is reported (Sentry when
 * configured) and answered 500 in the API's error shape. A method a route does not take (the
 * route table, src/server/routes.ts) is answered 405 with `Allow`, and a query parameter
 * holding a NUL character 400, before any route runs. Every API answer carries the API's
 * Content-Security-Policy. Prerendered pages pass through untouched, and an address no route
 * answers gets the not-found page.
 */
export const onRequest = defineMiddleware((context, next) => {
  // A prerendered page is built in the language its address starts with (`/es/{slug}/`), else the default.
  if (context.isPrerendered) {
    renderIn(localeOf(context.url.pathname.split('/')[1]));
    return next();
  }
  return inRequestLanguage(context.url, () => answerRequest(context, next));
});

/** The API's and the console's answer to one request, in the language it asks for. */
const answerRequest: MiddlewareHandler = async (context, next) => {
  const consolePage = isConsolePage(context.url.pathname);
  if (!consolePage && !context.url.pathname.startsWith('/api')) return next();
  const config = serverConfig();
  if (config.testHooks) await (testHooks ??= import('./server/test-hooks.ts').then((hooks) => setRequestHooks(hooks.testHooks)));
  // The console's pages: its gate (src/server/console/console-guard.ts) finds the session and its operator.
  if (consolePage) return guardConsolePage(context, next);
  // As every unknown address does, before any of the API's checks: Astro draws its not-found page for a 404 without a body.
  const match = requestedRoute(context);
  if (!match) return new Response(null, { status: 404 });
  const consoleRoute = isConsoleRoute(match.route.path);
  const origin = context.request.headers.get('origin');
  const ownOrigin = context.url.origin;
  const answer = await (async () => {
    const allow = refusedMethod(match.route, context.request.method);
    if (allow) return refuse(405, 'method_not_allowed', `This address takes ${allow.join(', ')}.`, [], { Allow: allow.join(', ') });
    if (context.request.method === 'OPTIONS') return preflight(origin, ownOrigin, config, match.route.methods);
    // The query as parsed holds a NUL only where its text says `%00`: URL parsing encodes a raw one so.
    const nul = context.url.search.includes('%00') ? nulProblems(context.url.searchParams.entries()) : [];
    if (nul.length) return refuse(400, 'bad_query', 'A query parameter holds a NUL character.', nul);
    // A mail provider's one-click unsubscribe (RFC 8058) posts from its own servers, with no Origin: the token is the proof.
    const oneClick = match.route.path === '/api/unsubscribe/:token';
    if (
      !consoleRoute &&
      !oneClick &&
      !isSafeMethod(context.request.method) &&
      !originAllowed(origin, ownOrigin, config) &&
      !sameOriginFormPost(context.request)
    ) {
      const what = match.route.path.startsWith('/api/search/') ? 'Searches' : 'Ballots';
      return refuse(403, 'forbidden_origin', `${what} are accepted only from the survey site itself.`, [
        { path: 'Origin', message: origin ? `${origin} is not allowed.` : 'is missing.' },
      ]);
    }
    try {
      // The console's endpoints take their own origin only, a session and its CSRF token for every change (its gate says so).
      const refused = consoleRoute ? await guardConsoleRoute(context, match.route.path) : undefined;
      return refused ?? (await next());
    } catch (error) {
      await reportServerError(error, context.request, config);
      return json(500, { error: 'server_error', message: 'The survey API failed to handle this request; it has been reported.', problems: [] });
    }
  })();
  // The console is its own origin's alone: no other origin is told it may read it.
  if (!consoleRoute) for (const [name, value] of Object.entries(corsHeaders(origin, ownOrigin, config))) answer.headers.set(name, value);
  // The HTML page a form post may get carries its own, as strict, policy.
  if (!answer.headers.has('Content-Security-Policy')) answer.headers.set('Content-Security-Policy', API_CONTENT_SECURITY_POLICY);
  return consoleRoute ? consoleHeaders(answer) : answer;
};
