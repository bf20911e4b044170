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
 * Finds what to do with a path: `{ redirect, status }`, `{ rewrite }`, or undefined to serve it as is.
 * A rule that is not forced yields to a file that exists at the path (a static host's "shadowing").
 * @param {ReturnType<typeof parseRules>} rules
 * @param {string} pathname
 * @param {string} clientDir
 */
export function matchRule(rules, pathname, clientDir) {
  for (const rule of rules) {
    const match = rule.pattern.exec(pathname);
    if (!match) continue;
    if (!rule.force && resolveFile(clientDir, pathname)) return undefined;
    const target = rule.names.reduce((to, name, i) => to.replace(`:${name}`, match[i + 1]), rule.to);
    return rule.status === 200 ? { rewrite: target } : { redirect: target, status: rule.status };
  }
  return undefined;
}
