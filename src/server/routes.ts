// The survey API's route table: every address it answers and the methods each takes. The
// endpoint (src/pages/api/[...route].ts, through route-handlers.ts), the middleware's 405,
// bin/serve.mjs's warm-up and docs/api.md's endpoint table all come from it. Plain data with no
// import, so that bin/serve.mjs, run by Node itself, can import it before any build (or the build's
// bundle of it, bin/lib/serve-settings.ts).

/** A method a route takes. OPTIONS, the CORS preflight, is answered for every route by the middleware (src/middleware.ts). */
type RouteMethod = 'GET' | 'HEAD' | 'POST';

/** One address of the survey API: its path, each `:name` part matching one path segment, and the methods it takes. */
export interface ApiRoute {
  readonly path: string;
  readonly methods: readonly RouteMethod[];
}

/** Every route of the survey API; a GET route answers HEAD too (the same answer without its body). */
export const API_ROUTES = [
  { path: '/api/survey', methods: ['POST'] },
  { path: '/api/survey/faces/:projectId', methods: ['GET', 'HEAD'] },
  { path: '/api/survey/experts/:projectId', methods: ['GET', 'HEAD'] },
  { path: '/api/survey/stats/:projectId', methods: ['GET', 'HEAD'] },
  { path: '/api/survey/workplace-stats/:projectId', methods: ['GET', 'HEAD'] },
  { path: '/api/survey/link/:projectId', methods: ['GET', 'HEAD'] },
  { path: '/api/search/:projectId', methods: ['POST'] },
  { path: '/api/survey/receipt/:projectId/:code', methods: ['GET', 'HEAD'] },
  { path: '/api/survey/receipt/:projectId', methods: ['GET', 'HEAD'] },
  { path: '/api/health', methods: ['GET', 'HEAD'] },
  { path: '/api/unsubscribe/:token', methods: ['GET', 'HEAD', 'POST'] },
  { path: '/api/survey/verify/:projectId', methods: ['POST'] },
  { path: '/api/survey/verify/:projectId/code', methods: ['POST'] },
  { path: '/api/console/sign-in/options', methods: ['POST'] },
  { path: '/api/console/sign-in', methods: ['POST'] },
  { path: '/api/console/enrol/options', methods: ['POST'] },
  { path: '/api/console/enrol', methods: ['POST'] },
  { path: '/api/console/enrolment-request', methods: ['POST'] },
  { path: '/api/console/sign-out', methods: ['POST'] },
  { path: '/api/console/sign-out-everywhere', methods: ['POST'] },
  { path: '/api/console/reauthenticate/options', methods: ['POST'] },
  { path: '/api/console/reauthenticate', methods: ['POST'] },
  { path: '/api/console/passkeys/options', methods: ['POST'] },
  { path: '/api/console/passkeys', methods: ['POST'] },
  { path: '/api/console/passkeys/:id/remove', methods: ['POST'] },
  { path: '/api/console/operators/:operator/link', methods: ['POST'] },
  { path: '/api/console/operators/:operator/end-sessions', methods: ['POST'] },
  { path: '/api/console/surveys', methods: ['GET', 'HEAD'] },
  { path: '/api/console/surveys/:slug', methods: ['GET', 'HEAD'] },
  { path: '/api/console/surveys/:slug/refused/:id/admit', methods: ['POST'] },
  { path: '/api/console/surveys/:slug/signals/ballots/:id/exclude', methods: ['POST'] },
  { path: '/api/console/surveys/:slug/signals/ballots/:id/restore', methods: ['POST'] },
  { path: '/api/console/surveys/:slug/write-ins/attach', methods: ['POST'] },
  { path: '/api/console/surveys/:slug/write-ins/add', methods: ['POST'] },
  { path: '/api/console/surveys/:slug/write-ins/undo', methods: ['POST'] },
  { path: '/api/console/surveys/:slug/mail/send', methods: ['POST'] },
  { path: '/api/console/surveys/:slug/mail/runs/:id', methods: ['GET', 'HEAD'] },
  { path: '/api/console/surveys/:slug/mail/bounces', methods: ['POST'] },
  { path: '/api/console/surveys/:slug/results/count', methods: ['POST'] },
  { path: '/api/console/surveys/:slug/results/unseal', methods: ['POST'] },
  { path: '/api/console/surveys/:slug/results/unseal/:id/approve', methods: ['POST'] },
  { path: '/api/console/surveys/:slug/results/publish', methods: ['POST'] },
  { path: '/api/console/surveys/:slug/results/counts/:id/csv', methods: ['GET', 'HEAD'] },
  { path: '/api/console/surveys/:slug/results/download', methods: ['GET', 'HEAD'] },
] as const satisfies readonly ApiRoute[];

/**
 * An address of each of the console's pages (src/pages/console/), which the API's server draws on
 * demand: enough for bin/serve.mjs to load each page's code as it starts, before a later build
 * replaces the files it would load lazily.
 */
export const CONSOLE_PAGE_SAMPLES = [
  '/console/',
  '/console/sign-in',
  '/console/enrol/_',
  '/console/_/',
  '/console/sessions',
  '/console/operators',
  '/console/operators/audit',
  '/console/_/audit',
  '/console/_/refused',
  '/console/_/signals',
  '/console/_/write-ins',
  '/console/_/mail',
  '/console/_/results',
  '/console/_/_',
] as const;

/** The path of one route of the table. */
export type RoutePath = (typeof API_ROUTES)[number]['path'];

/** The names of the `:name` parts of `Path`, so that a route's handler reads only the parts its path has. */
type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** The values of `Path`'s `:name` parts in an address it matched. */
export type RouteParams<Path extends string> = { readonly [Name in ParamNames<Path>]: string };

/** A route found for an address, with the values of its path's `:name` parts. */
export interface RouteMatch {
  readonly route: (typeof API_ROUTES)[number];
  readonly params: Readonly<Record<string, string>>;
}

/** A regular expression for a route's path: a `:name` part takes one segment, not empty; a trailing slash is ignored, as Astro does. */
function pathPattern(path: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = path
    .split('/')
    .map((part) => {
      if (!part.startsWith(':')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(part.slice(1));
      return '([^/]+?)';
    })
    .join('/');
  return { pattern: new RegExp(`^${source}/?$`), names };
}

const PATTERNS = API_ROUTES.map((route) => ({ route, ...pathPattern(route.path) }));

/**
 * The route that answers `pathname` (decoded as Astro decodes it), with its parts' values;
 * undefined for an address no route answers. No two routes match one address.
 */
export function matchRoute(pathname: string): RouteMatch | undefined {
  for (const { route, pattern, names } of PATTERNS) {
    const found = pattern.exec(pathname);
    if (found) return { route, params: Object.fromEntries(names.map((name, index) => [name, found[index + 1]])) };
  }
  return undefined;
}

/**
 * The methods `route` takes, OPTIONS included, when `method` is not one of them (the caller
 * answers 405 with them as `Allow`); undefined when the method is taken.
 */
export function refusedMethod(route: ApiRoute, method: string): string[] | undefined {
  const allowed = [...route.methods, 'OPTIONS'];
  return allowed.includes(method.toUpperCase()) ? undefined : allowed;
}

/** An address the route answers, each `:name` part filled with `_`: enough to load its code. */
export function sampleAddress(route: ApiRoute): string {
  return route.path.replace(/:[^/]+/g, '_');
}
