// How bin/serve.mjs hands the survey API a request whose body it has read whole (or that has
// none): straight to Astro's App, through the API Astro documents for an adapter's own server
// (`app.match`, `app.render`), instead of through the Node adapter's handler. The adapter's
// handler wraps every request in what only a streamed body or a streamed answer needs: an
// async-iterable body, an AbortController wired to the socket, a request context for its
// rejection log, and an answer read chunk by chunk from a web stream. For a ballot, all of
// that came to about a seventh of the server's processor time. Here the request holds the body
// as one buffer, and the answer, small JSON or a short page, is written in one piece. Astro's
// middleware, routing and endpoints run exactly as they do behind the adapter.
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** Where Astro looks for the client's address on a Request (astro/app/node sets it the same way). */
const CLIENT_ADDRESS = Symbol.for('astro.clientAddress');
/** Route kinds Astro pre-renders, which an on-demand request must not be matched to (as the adapter does). */
const PRERENDERED_KINDS = new Set(['page', 'endpoint']);

/**
 * The Request for `req`, at the address the adapter builds: the Host header and the target,
 * parsed once (by the Request itself); for one that does not parse, the adapter's fallbacks,
 * the origin alone, else `localhost`.
 */
function makeRequest(req) {
  const protocol = req.socket?.encrypted ? 'https' : 'http';
  const origin = `${protocol}://${typeof req.headers.host === 'string' ? req.headers.host : 'localhost'}`;
  const address = origin + (req.url ?? '');
  const init = { method: req.method, headers: requestHeaders(req.headers), body: req.body };
  try {
    return new Request(address, init);
  } catch (error) {
    if (!(error instanceof TypeError) || URL.canParse(address)) throw error;
    return new Request(URL.canParse(origin) ? origin : `${protocol}://localhost`, init);
  }
}

/**
 * The request's headers as Node parsed them: from `req.headers`, not the raw list, so that a
 * header bin/serve.mjs set over the client's (the connection's address) is the one seen.
 */
function requestHeaders(nodeHeaders) {
  const headers = new Headers();
  for (const name in nodeHeaders) {
    const value = nodeHeaders[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.append(name, value);
  }
  return headers;
}

/**
 * The headers for `writeHead`: the address's own from `_headers` (a name given twice sent twice),
 * then the Response's, each of which takes the place of any of the address's by that name, as
 * `setHeader` would; each Set-Cookie kept apart. One object, so that Node checks each header
 * once, as it writes them.
 * @param {ReadonlyArray<[string, string]>} addressHeaders
 * @param {Headers} headers
 */
function outgoingHeaders(addressHeaders, headers) {
  /** @type {Record<string, string | string[]>} */
  const out = {};
  for (const [name, value] of addressHeaders) {
    const key = name.toLowerCase();
    const given = out[key];
    out[key] = given === undefined ? value : [given, value].flat();
  }
  for (const [name, value] of headers) if (name !== 'set-cookie') out[name] = value;
  const cookies = headers.getSetCookie();
  if (cookies.length) out['set-cookie'] = cookies;
  return out;
}

/** The 500 when Astro itself fails to answer (the API's middleware answers its own errors in its shape). */
const FAILED = JSON.stringify({ error: 'server_error', message: 'The server failed to handle this request.', problems: [] });
const FAILED_HEADERS = new Headers({ 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });

/**
 * A handler `(req, res, headers)` answering through `app`, for a request whose `req.body` is a
 * Buffer or absent, with the address's `_headers` headers beside Astro's. The not-found and
 * error pages Astro draws come from `clientDir`, read when needed, so that a rebuild while the
 * server runs is served at once.
 * @param {{ match(request: Request, allowPrerendered?: boolean): { prerender?: boolean, type: string } | undefined, render(request: Request, options: object): Promise<Response> }} app
 * @param {string} clientDir
 */
export function appHandler(app, clientDir) {
  const prerenderedErrorPageFetch = async (url) => {
    const { pathname } = new URL(url);
    const status = /\/(404|500)(\.html|\/index\.html)$/.exec(pathname)?.[1];
    if (status) {
      for (const file of [`${status}.html`, `${status}/index.html`]) {
        const page = await readFile(path.join(clientDir, file)).catch(() => undefined);
        if (page) return new Response(page, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
      }
    }
    return new Response(null, { status: 404 });
  };

  return async (req, res, addressHeaders = []) => {
    let response;
    let body;
    try {
      const request = makeRequest(req);
      Reflect.set(request, CLIENT_ADDRESS, req.socket?.remoteAddress);
      let routeData = app.match(request, true);
      if (routeData?.prerender && PRERENDERED_KINDS.has(routeData.type)) routeData = app.match(request);
      response = await app.render(request, { addCookieHeader: true, routeData, prerenderedErrorPageFetch });
      body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
    } catch (error) {
      // The path only: a query may hold a personal link's secret.
      console.error(`Could not answer ${req.method} ${(req.url ?? '').split('?')[0]}: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
      if (!res.headersSent) res.writeHead(500, outgoingHeaders(addressHeaders, FAILED_HEADERS)).end(FAILED);
      else res.destroy();
      return;
    }
    res.writeHead(response.status, response.statusText || undefined, outgoingHeaders(addressHeaders, response.headers));
    res.end(body);
  };
}
