/** Each survey API route and the methods it takes (OPTIONS, the CORS preflight, is answered for every route). */
const ROUTES: ReadonlyArray<readonly [RegExp, readonly string[]]> = [
  [/^\/api\/survey\/?$/, ['POST']],
  [/^\/api\/search\/[^/]+\/?$/, ['POST']],
  [/^\/api\/survey\/(faces|experts|stats|workplace-stats|link)\/[^/]+\/?$/, ['GET', 'HEAD']],
  [/^\/api\/health\/?$/, ['GET', 'HEAD']],
];

/**
 * The methods the route at `pathname` takes, OPTIONS included, when `method` is not one of
 * them (the caller answers 405 with them as `Allow`); undefined when the method is taken or
 * the path is no route of the API.
 */
export function refusedMethod(pathname: string, method: string): string[] | undefined {
  const route = ROUTES.find(([pattern]) => pattern.test(pathname));
  if (!route) return undefined;
  const allowed = [...route[1], 'OPTIONS'];
  return allowed.includes(method.toUpperCase()) ? undefined : allowed;
}
