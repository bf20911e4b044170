// Reads and applies the `_redirects` rules that the build writes for static hosts, so
// that `npm start` routes exactly as a static host would.
import { resolveFile } from './static-files.mjs';

/**
 * Parses `_redirects` lines of the form `from  to  status[!]`; `:name` in `from` matches one
 * path segment and may be used again in `to`.
 * @param {string} text
 */
export function parseRules(text) {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [from, to, code = '301'] = line.split(/\s+/);
      const names = [];
      const source = from
        .split('/')
        .map((part) => (part.startsWith(':') ? (names.push(part.slice(1)), '([^/]+)') : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/');
      return { pattern: new RegExp(`^${source}/?$`), names, to, status: Number.parseInt(code, 10), force: code.endsWith('!') };
    });
}

/**
 * Finds what to do with a path: `{ redirect, status }`, `{ rewrite }`, `{ notFound: true }` (a
 * 404 rule: the not-found page, as a static host answers it), or undefined to serve it as is.
 * A rule that is not forced yields to a file that exists at the path (a static host's "shadowing").
 * bin/serve.mjs calls its two halves apart (it remembers firstRule's answer for each address);
 * exported whole so that the rules' tests read as a static host's behaviour.
 * @internal
 * @param {ReturnType<typeof parseRules>} rules
 * @param {string} pathname
 * @param {string} clientDir
 */
export function matchRule(rules, pathname, clientDir) {
  return ruleAction(firstRule(rules, pathname), pathname, clientDir);
}

/**
 * What the first rule that matched a path (firstRule's) does with it, as matchRule says; the
 * file check is made here, on every request, so that a rebuild's new file shadows at once.
 * @param {ReturnType<typeof firstRule>} first
 * @param {string} pathname
 * @param {string} clientDir
 */
export function ruleAction(first, pathname, clientDir) {
  if (!first) return undefined;
  const { rule, match } = first;
  if (!rule.force && resolveFile(clientDir, pathname)) return undefined;
  const target = rule.names.reduce((to, name, i) => to.replace(`:${name}`, match[i + 1]), rule.to);
  if (rule.status === 404) return { notFound: true };
  return rule.status === 200 ? { rewrite: target } : { redirect: target, status: rule.status };
}

/**
 * The first rule whose pattern matches a path, with its match; undefined when none does. It
 * depends on the rules and the path alone, so bin/serve.mjs remembers it for each address.
 * @param {ReturnType<typeof parseRules>} rules
 * @param {string} pathname
 */
export function firstRule(rules, pathname) {
  for (const rule of rules) {
    const match = rule.pattern.exec(pathname);
    if (match) return { rule, match };
  }
  return undefined;
}

/**
 * Parses a `_headers` file: a path pattern on its own line (`*` matches the rest of the path,
 * `:name` one segment), then its headers indented below it.
 * @param {string} text
 * @returns {Array<{ pattern: RegExp, headers: Array<[string, string]> }>}
 */
export function parseHeaderRules(text) {
  const blocks = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    if (/^\s/.test(line)) {
      const [name, value] = line.trim().split(/:\s*(.*)/s);
      blocks.at(-1)?.headers.push([name, value ?? '']);
      continue;
    }
    const source = line
      .trim()
      .split('/')
      .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    blocks.push({ pattern: new RegExp(`^${source}$`), headers: [] });
  }
  return blocks;
}

/**
 * The headers for a path: those of every block that matches, in file order, as a static host
 * sends them (a header named twice is sent twice, which for a policy means both apply).
 * @param {ReturnType<typeof parseHeaderRules>} blocks
 * @param {string} pathname
 * @returns {Array<[string, string]>}
 */
export function headersFor(blocks, pathname) {
  return blocks.filter((block) => block.pattern.test(pathname)).flatMap((block) => block.headers);
}

/**
 * `headers` with a page's own Content-Security-Policy in place of its folder's: that of the built
 * page the path is served from (`policies`, by page path: `/{slug}`, `/{slug}/thankyou`), when it
 * is one. A static host sends the folder's, matched before a personal link is rewritten.
 * @param {Array<[string, string]>} headers
 * @param {ReadonlyMap<string, string>} policies
 * @param {string} pathname the path served, after any rewrite
 * @returns {Array<[string, string]>}
 */
export function withPagePolicy(headers, policies, pathname) {
  const policy = policies.get(pathname.replace(/\/index\.html$/, '').replace(/\/+$/, ''));
  if (!policy) return headers;
  return [...headers.filter(([name]) => name.toLowerCase() !== 'content-security-policy'), ['Content-Security-Policy', policy]];
}

/**
 * True for a request that reached us over HTTPS: a TLS connection, or, behind proxies we trust
 * (TRUST_PROXY), an `X-Forwarded-Proto` that says `https`, read as the client address is: the
 * entry `trustProxy` places from the right, which our own proxy wrote. Strict-Transport-Security
 * goes only with such answers: over plain HTTP it would promise what the server does not do.
 * @param {import('node:http').IncomingMessage} req
 * @param {number} trustProxy how many proxies in front append to the forwarded headers; 0 trusts none
 */
export function overHttps(req, trustProxy) {
  if (/** @type {import('node:tls').TLSSocket} */ (req.socket).encrypted) return true;
  if (trustProxy === 0) return false;
  const header = req.headers['x-forwarded-proto'];
  const protos = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  return (protos[protos.length - trustProxy] ?? protos[0]) === 'https';
}
