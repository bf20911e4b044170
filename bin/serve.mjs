// Serves the built site and the survey API from one Node process: the static pages, the
// static host's rules from `_redirects` and `_headers`, and Astro's on-demand routes (the
// Node adapter's middleware-mode handler, which serves no files and starts no server itself).
import { readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { firstRule, headersFor, overHttps, parseHeaderRules, parseRules, ruleAction, withPagePolicy } from './static-rules.mjs';
import { notServed, requestTarget, staticFiles } from './static-files.mjs';
import { withBody } from './request-bodies.mjs';
import { appHandler } from './astro-app.mjs';
import { freshBundle } from '../src/integrations/cli-bundle/manifest.mjs';

// The survey API's route table, the same the built API answers from, and its settings, read as the
// API reads them (a wrong value stops the start here, naming the variable): from the build's
// bundle of them while it is fresh, so that no TypeScript is loaded (0.15 s of processor time a
// start), else from the sources.
const settingsBundle = freshBundle(fileURLToPath(new URL('../dist/', import.meta.url)), 'serve');
const { API_ROUTES, CONSOLE_PAGE_SAMPLES, sampleAddress, readServerConfig } = settingsBundle
  ? await import(settingsBundle)
  : await import('./lib/serve-settings.ts');

/** The not-found page's path in `_headers` (src/integrations/static-host-rules.ts). */
const NOT_FOUND_PAGE = '/404.html';

// The survey API trusts the peer header below only when this server set it.
process.env.PEERVOTE_PEER_HEADER = '1';
// PEERVOTE_DIST serves another build's output (`astro build --outDir …`); tests use it.
const dist = process.env.PEERVOTE_DIST ? `${path.resolve(process.env.PEERVOTE_DIST)}/` : fileURLToPath(new URL('../dist/', import.meta.url));
const clientDir = `${dist}client`;
const { handler, astroApp } = await import(pathToFileURL(`${dist}server/entry.mjs`).href);
/** Answers a request whose body was read whole, or that has none, straight through Astro's App (src/integrations/node-app.ts exports it); the adapter's handler takes the rest. */
const answerWhole = astroApp ? appHandler(astroApp, clientDir) : (req, res, headers) => handler(req, withHeaders(res, headers));

/**
 * A static host's rules file, read again when a build rewrites it (checked at most once a
 * second), so that `npm run build` while this server runs deploys a new survey's rules too.
 */
function followRules(file, parse) {
  let stamp = '';
  let rules;
  let checkedAt = 0;
  return () => {
    const now = Date.now();
    // A clock set back (by NTP) looks again rather than waiting for the old time to come round.
    if (rules && now >= checkedAt && now - checkedAt < 1000) return rules;
    checkedAt = now;
    try {
      const stat = statSync(file);
      const seen = `${stat.mtimeMs}:${stat.size}`;
      if (seen !== stamp) [rules, stamp] = [parse(readFileSync(file, 'utf8')), seen];
    } catch (error) {
      // Mid-build the file may be missing for a moment: the last rules read stay in force.
      if (!rules) throw error;
    }
    return rules;
  };
}

let config;
try {
  config = readServerConfig();
} catch (error) {
  console.error(`Peervote could not start: ${error instanceof Error ? error.message : error}.`);
  process.exit(1);
}

const files = staticFiles(clientDir);
const rules = followRules(`${clientDir}/_redirects`, parseRules);
const headerRules = followRules(`${clientDir}/_headers`, parseHeaderRules);
const followPagePolicies = followRules(`${dist}server/page-policies.json`, (text) => new Map(Object.entries(JSON.parse(text))));
/**
 * Each built page's own Content-Security-Policy, by page path (src/integrations/static-host-rules.ts);
 * none from a build older than that file, whose pages keep their folder's policy from `_headers`.
 */
function pagePolicies() {
  try {
    return followPagePolicies();
  } catch {
    return new Map();
  }
}

/**
 * What the rules files say of each address, worked out once per address and pair of rules files
 * read (every ballot asks for the same): its `_headers` headers, over plain HTTP and over HTTPS
 * (Strict-Transport-Security only there: over plain HTTP it would promise what the server does
 * not do), and the first `_redirects` rule that matches it. Bounded, as addresses are the client's.
 */
let knownPaths = { headerRules: undefined, rules: undefined, byPath: new Map() };

/** @returns {{ http: Array<[string, string]>, https: Array<[string, string]>, rule: ReturnType<typeof firstRule> }} */
function pathRules(pathname) {
  const [currentHeaders, currentRules] = [headerRules(), rules()];
  if (knownPaths.headerRules !== currentHeaders || knownPaths.rules !== currentRules)
    knownPaths = { headerRules: currentHeaders, rules: currentRules, byPath: new Map() };
  let known = knownPaths.byPath.get(pathname);
  if (!known) {
    const https = headersFor(currentHeaders, pathname);
    const http = https.filter(([name]) => name.toLowerCase() !== 'strict-transport-security');
    known = { http, https, rule: firstRule(currentRules, pathname) };
    if (knownPaths.byPath.size >= 1000) knownPaths.byPath.clear();
    knownPaths.byPath.set(pathname, known);
  }
  return known;
}

/** `res` with an address's `_headers` headers set, for every answer but the API's from a whole body, which sends them with its own (bin/astro-app.mjs). */
function withHeaders(res, headers) {
  for (const [name, value] of headers) res.appendHeader(name, value);
  return res;
}

const port = Number(process.env.PORT ?? 4321);
const host = process.env.HOST ?? '127.0.0.1';

/** The console's pages, drawn by Astro on each request. */
const CONSOLE = /^\/console(\/|$)/;

/** Methods no route takes, which Astro cannot even make a Request of: answered here, never with a stack trace. */
const NEVER_TAKEN = new Set(['TRACE', 'CONNECT']);

/** The 405 for such a method, in the survey API's error shape; Allow lists what the server takes at all: the pages' GET and HEAD, every route's methods, OPTIONS. */
const ALLOW = [...new Set(['GET', 'HEAD', ...API_ROUTES.flatMap((route) => route.methods), 'OPTIONS'])].join(', ');
const REFUSED_METHOD = JSON.stringify({ error: 'method_not_allowed', message: `This server takes ${ALLOW}.`, problems: [] });

/** The 400 for a path that tries to reach outside the built files, before any rule or file is looked at. */
const refuse = (res, why) =>
  res
    .writeHead(400, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' })
    .end(JSON.stringify({ error: 'bad_request', message: `This address cannot be served: ${why}.`, problems: [] }));

/**
 * A page address that names no built file: Astro answers with the not-found page, which
 * carries its own policy from `_headers` wherever the address's folder gave none (outside
 * every survey's folder), as under a survey's folder that folder's policy covers it.
 */
function notFound(req, res) {
  if (!res.hasHeader('Content-Security-Policy')) {
    for (const [name, value] of headersFor(headerRules(), NOT_FOUND_PAGE)) if (name.toLowerCase() === 'content-security-policy') res.appendHeader(name, value);
  }
  handler(req, res);
}

const server = http.createServer((req, res) => {
  if (NEVER_TAKEN.has(req.method ?? '')) {
    res
      .writeHead(405, { Allow: ALLOW, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'close' })
      .end(REFUSED_METHOD);
    return;
  }
  // The connection's own address, for the API's rate limit; a client cannot set it.
  req.headers['x-peervote-peer'] = req.socket.remoteAddress ?? 'unknown';
  // The refusal is the raw target's: the path read here has `..` and `%2e%2e` resolved away.
  const { pathname: asked, search, refused } = requestTarget(req.url ?? '/');
  // Matched on the address asked for, before any rewrite, as a static host does.
  const known = pathRules(asked);
  const headers = overHttps(req, config.trustProxy) ? known.https : known.http;
  if (refused) return refuse(withHeaders(res, headers), refused);
  const action = ruleAction(known.rule, asked, clientDir);
  if (action?.notFound) return notFound(req, withHeaders(res, headers));
  if (action?.redirect) {
    withHeaders(res, headers)
      .writeHead(action.status, { Location: action.redirect + search })
      .end();
    return;
  }
  if (action?.rewrite) req.url = action.rewrite + search;
  const pathname = action?.rewrite ?? asked;
  // The API and the console's pages (drawn on demand, no file of the build) go to Astro.
  if (pathname.startsWith('/api/') || CONSOLE.test(pathname) || (req.method !== 'GET' && req.method !== 'HEAD'))
    withBody(req, res, config.bodySizeLimit, () =>
      req.body === undefined || Buffer.isBuffer(req.body) ? answerWhole(req, res, headers) : handler(req, withHeaders(res, headers)),
    );
  else if (notServed(pathname)) notFound(req, withHeaders(res, headers));
  else files(req, withHeaders(res, withPagePolicy(headers, pagePolicies(), pathname)), () => notFound(req, res));
});

// A CONNECT never reaches the request handler: Node hands it over as a raw socket.
server.on('connect', (_req, socket) => {
  const head = `HTTP/1.1 405 Method Not Allowed\r\nAllow: ${ALLOW}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(REFUSED_METHOD)}\r\nConnection: close\r\n\r\n`;
  socket.end(head + REFUSED_METHOD);
});

server.listen(port, host, async () => {
  // Open the database and run its migrations now, so that a bad setting stops the start.
  const health = await fetch(`http://${host.includes(':') ? `[${host}]` : host}:${port}/api/health`).catch((error) => error);
  if (!(health instanceof Response) || !health.ok) {
    console.error(
      `Peervote could not start: the survey API is not ready (${health instanceof Response ? `${health.status} ${await health.text()}` : health}).`,
    );
    process.exit(1);
  }
  // /api/health loaded the surveys, which builds every nominee index now, not on the first voter's search.
  // Load every API route's code now too: a later build replaces the files this process would load lazily.
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  // The console's pages too: each is drawn on demand, and an OPTIONS (refused) loads its code, changing nothing.
  const samples = [...API_ROUTES.map(sampleAddress), ...CONSOLE_PAGE_SAMPLES];
  await Promise.all(samples.map((address) => fetch(`${base}${address}`, { method: 'OPTIONS' }).catch(() => undefined)));
  console.log(`Peervote is running at http://${host}:${port}/`);
  // A passkey belongs to a host name, never an IP address: the console lives at localhost unless PEERVOTE_BASE_URL says where.
  console.log(`The console is at ${config.baseUrl ?? `http://localhost:${port}`}/console/`);
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
