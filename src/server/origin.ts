import type { ServerConfig } from './config.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The request headers a cross-origin page may send to the API. */
const ALLOWED_HEADERS = 'Content-Type, Idempotency-Key';

/**
 * May a request that changes something come from `origin`? Only the API's own origin (as Astro
 * sees it: behind a proxy, with security.allowedDomains) and the configured ALLOWED_ORIGINS.
 * A POST without an Origin header is refused too, as Astro's own check would.
 */
export function originAllowed(origin: string | null, ownOrigin: string, config: Pick<ServerConfig, 'allowedOrigins'>): boolean {
  return origin !== null && (origin === ownOrigin || config.allowedOrigins.includes(origin));
}

/** True for methods that change nothing and need no origin check. */
export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method.toUpperCase());
}

/**
 * The CORS headers for a request from `origin`: the origin echoed, with `Vary: Origin`, exactly
 * when `originAllowed` lets its posts in (the API's own origin or ALLOWED_ORIGINS), so that
 * what the headers tell a browser is what the origin check enforces.
 */
export function corsHeaders(origin: string | null, ownOrigin: string, config: Pick<ServerConfig, 'allowedOrigins'>): Record<string, string> {
  const headers: Record<string, string> = { Vary: 'Origin' };
  if (originAllowed(origin, ownOrigin, config)) {
    headers['Access-Control-Allow-Origin'] = origin as string;
    headers['Access-Control-Expose-Headers'] = 'Retry-After, Idempotent-Replayed';
  }
  return headers;
}

/**
 * The answer to a CORS preflight: 204 granting the route's methods with our headers to an
 * origin `originAllowed` lets in (the site's own included), else 403.
 */
export function preflight(origin: string | null, ownOrigin: string, config: Pick<ServerConfig, 'allowedOrigins'>, methods: readonly string[]): Response {
  const headers = corsHeaders(origin, ownOrigin, config);
  if (!headers['Access-Control-Allow-Origin']) return new Response(null, { status: 403, headers });
  return new Response(null, {
    status: 204,
    headers: {
      ...headers,
      'Access-Control-Allow-Methods': [...methods, 'OPTIONS'].join(', '),
      'Access-Control-Allow-Headers': ALLOWED_HEADERS,
      'Access-Control-Max-Age': '600',
    },
  });
}

/**
 * True for a form the site's own page posted without JavaScript: its Referrer-Policy
 * (no-referrer) makes the browser send `Origin: null`, and `Sec-Fetch-Site: same-origin`, a
 * header no page script can set, vouches for it. A site on another origin needs JavaScript.
 */
export function sameOriginFormPost(request: Request): boolean {
  return request.headers.get('origin') === 'null' && request.headers.get('sec-fetch-site') === 'same-origin';
}
