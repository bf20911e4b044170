// Serves the built files with sirv: a precompressed copy (Brotli, then gzip) when the browser
// accepts one, hashed assets cached for a year, everything else revalidated. Each request
// looks at the disk (sirv's `dev` lookup), so a build while the server runs is served at once.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import sirv from 'sirv';

/** Hashed by the build, so a changed file gets a new name: cached for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Every other file keeps its name across builds: asked again, answered 304 while unchanged. */
const REVALIDATE = 'public, max-age=0, must-revalidate';

/** Text types named with their charset, as before sirv (which names it for HTML only). */
const TEXT_TYPES = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.jsonl': 'application/x-ndjson; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
};

/**
 * Why a request's raw path is refused before any file is looked up, or undefined when it is
 * fine: a path that does not decode, or that holds a NUL, a backslash or a `.`/`..` segment
 * (written plainly or percent-encoded), never names a built file.
 * @param {string} rawUrl the request line's target, as the client sent it
 * @returns {string | undefined}
 */
export function refusedPath(rawUrl) {
  const rawPath = rawUrl.split(/[?#]/, 1)[0];
  // Nothing to decode and no character any check below looks for: most paths, every ballot's.
  if (!/[%.\\\0]/.test(rawPath)) return undefined;
  let decoded;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return 'the path is not valid percent-encoding';
  }
  if (decoded.includes('\0')) return 'the path holds a NUL character';
  if (decoded.includes('\\')) return 'the path holds a backslash';
  if (decoded.split('/').some((segment) => segment === '..' || segment === '.')) return 'the path climbs folders';
  return undefined;
}

/**
 * A request target that needs no parsing to be read as a URL parser reads it: an absolute path
 * of letters, digits, `-`, `_` and `/` (not opening with `//`, which a parser takes for a host),
 * and a query of characters a parser keeps as they are. Every ballot's and page's is one.
 */
const PLAIN_TARGET = /^(\/(?!\/)[\w\-/]*)(\?[\w\-.~!$&()*+,;=:@/?%]*)?$/;

/**
 * A request target's path and query as `new URL(target, base)` reads them (the path with `.`
 * and `..` resolved, the query with what a URL may not hold escaped), and why it is refused, if
 * it is: refusedPath's reasons, or a target no URL parser takes. A plain target is read as it
 * is, with nothing in it to refuse.
 * @param {string} rawUrl the request line's target, as the client sent it
 * @returns {{ pathname: string, search: string, refused: string | undefined }}
 */
export function requestTarget(rawUrl) {
  const plain = PLAIN_TARGET.exec(rawUrl);
  if (plain) return { pathname: plain[1], search: plain[2] === '?' ? '' : (plain[2] ?? ''), refused: undefined };
  // `/\` reads as `//`, an address with an empty host, which no parser takes.
  const url = URL.parse(rawUrl, 'http://localhost');
  if (!url) return { pathname: '/', search: '', refused: 'the address does not parse' };
  return { pathname: url.pathname, search: url.search, refused: refusedPath(rawUrl) };
}

/**
 * Built files that are no page of their own: the static host's rules, which a host reads and
 * never serves, and the not-found page, which answers only, with 404, an address that names
 * nothing. Each is named with and without `.html` (sirv finds `/404` at `404.html`), and the
 * build's compressed copies of it (`.br`, `.gz`) are not served either.
 */
const NOT_SERVED = new Set(['/_headers', '/_redirects', '/404', '/404.html']);

/**
 * True for a path that names one of the built files never served as they are: the caller
 * answers it as an address that names no file. Compared once decoded and without trailing
 * slashes, as sirv looks the file up.
 * @param {string} pathname the request's path, not yet decoded
 */
export function notServed(pathname) {
  let decoded;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return false;
  }
  return NOT_SERVED.has(decoded.replace(/\.(br|gz)$/, '').replace(/\/+$/, ''));
}

/**
 * The built file a path names (the file itself, or its folder's index.html), or undefined.
 * @param {string} clientDir
 * @param {string} pathname
 */
export function resolveFile(clientDir, pathname) {
  if (refusedPath(pathname)) return undefined;
  const root = path.resolve(clientDir);
  const file = path.join(root, decodeURIComponent(pathname));
  if (file !== root && !file.startsWith(`${root}${path.sep}`)) return undefined;
  for (const candidate of [file, path.join(file, 'index.html')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/**
 * A request handler `(req, res, next)` for the files under `clientDir`; `next` gets every
 * request that names no file there.
 * @param {string} clientDir
 */
export function staticFiles(clientDir) {
  return sirv(clientDir, {
    dev: true,
    etag: true,
    brotli: true,
    gzip: true,
    setHeaders: (res, pathname) => {
      const immutable = pathname.startsWith('/_astro/');
      res.setHeader('Cache-Control', immutable ? IMMUTABLE : REVALIDATE);
      const type = TEXT_TYPES[path.extname(pathname)];
      if (type) res.setHeader('Content-Type', type);
      if (immutable) withoutValidators(res);
    },
  });
}

/**
 * Leaves out the validators sirv writes for every file (Last-Modified, ETag) from the answer for
 * a file that never changes: a browser never asks whether it did, so they are only some 80 bytes
 * more for each of the page's scripts. sirv hands its own headers to writeHead, past setHeader.
 * @param {import('node:http').ServerResponse} res
 */
function withoutValidators(res) {
  const writeHead = res.writeHead;
  res.writeHead = (status, headers) => {
    if (headers && typeof headers === 'object' && !Array.isArray(headers)) {
      delete headers['Last-Modified'];
      delete headers.ETag;
    }
    return writeHead.call(res, status, headers);
  };
}
