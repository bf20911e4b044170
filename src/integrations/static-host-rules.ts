import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { AstroIntegration } from 'astro';
import { loadAllSurveys, loadSite } from '../survey/config/loader.ts';
import { HEADER_ONLY_DIRECTIVES, MEDIA_CONTENT_SECURITY_POLICY, mergePolicies, parsePolicy, staticHeaders } from '../survey/api/headers.ts';

/** The page a static host sends for an address that names no file; `bin/serve.mjs` does the same. */
const NOT_FOUND_PAGE = '/404.html';

/**
 * The rules a static host needs, in the `_redirects` format that Netlify and Cloudflare
 * Pages read (and that `bin/serve.mjs` applies too): index.html to its folder, `/` to the
 * default survey, and every personal link `/{slug}/{secret}` rewritten to its survey's
 * personal-link page, which reads the secret in the browser. A `!` forces a rule even
 * where a file exists at the path. `/{slug}/results` is never a secret: it is the results
 * page once published, and until then (no file there) the not-found page, with its 404.
 */
export function redirectRules(slugs: string[], defaultSurvey: string): string {
  const lines = ['/index.html  /  301!', `/  /${defaultSurvey}/  302!`];
  for (const slug of slugs) {
    lines.push(`/${slug}/index.html  /${slug}/  301!`, `/${slug}/results  ${NOT_FOUND_PAGE}  404`, `/${slug}/:secret  /${slug}/personal-link/  200`);
  }
  return `${lines.join('\n')}\n`;
}

/** The images the site serves from `public/`: their own policy, since an SVG opened on its own is a document. */
const MEDIA_PATHS = ['/media/*', '/favicon.svg'];

/**
 * The `_headers` file for static hosts, the same headers `bin/serve.mjs` sends: the hardening
 * headers for every path, each survey's Content-Security-Policy under its folder, the site's own
 * pages' under theirs (the accessibility statement), the not-found page's own, and the images'
 * (under `/media/`, and the favicon). A host sends every block whose path matches, so no policy
 * sits under `/*`, where it would add to (and so narrow) each survey's own.
 */
export function headerRules(surveyPolicies: Record<string, string> = {}, notFoundPolicy?: string, sitePagePolicies: Record<string, string> = {}): string {
  const block = (pattern: string, headers: Record<string, string>) =>
    `${pattern}\n${Object.entries(headers)
      .map(([name, value]) => `  ${name}: ${value}`)
      .join('\n')}\n`;
  return [
    block('/*', staticHeaders()),
    ...Object.entries(surveyPolicies).map(([slug, policy]) => block(`/${slug}/*`, { 'Content-Security-Policy': policy })),
    ...Object.entries(sitePagePolicies).map(([pathname, policy]) => block(`${pathname}/*`, { 'Content-Security-Policy': policy })),
    ...(notFoundPolicy ? [block(NOT_FOUND_PAGE, { 'Content-Security-Policy': notFoundPolicy })] : []),
    ...MEDIA_PATHS.map((pattern) => block(pattern, { 'Content-Security-Policy': MEDIA_CONTENT_SECURITY_POLICY })),
  ].join('');
}

/** The Content-Security-Policy Astro gave each page it built, by the page's path (`/404`, `/{slug}/thankyou`…). */
export function routePolicies(routeToHeaders: ReadonlyMap<string, { headers: Headers }>): Map<string, string> {
  const policies = new Map<string, string>();
  for (const [pathname, { headers }] of routeToHeaders) {
    const policy = headers.get('content-security-policy');
    if (policy) policies.set(pathname, policy);
  }
  return policies;
}

/**
 * Each survey's header policy: the policies of all its pages merged (a personal link is
 * rewritten to one of them, and a host matches headers before it rewrites), with the
 * not-found page's (served at any address in the folder that names no page), plus what only
 * a header can say (frame-ancestors).
 */
export function surveyPolicies(policies: ReadonlyMap<string, string>, slugs: string[]): Record<string, string> {
  const notFound = policies.get('/404');
  return Object.fromEntries(
    slugs.map((slug) => {
      const own = [...policies].filter(([pathname]) => pathname === `/${slug}` || pathname.startsWith(`/${slug}/`)).map(([, policy]) => policy);
      return [slug, mergePolicies(notFound ? [...own, notFound] : own, HEADER_ONLY_DIRECTIVES)];
    }),
  );
}

/**
 * The header policies of the site's own pages outside every survey's folder (`/accessibility`),
 * the not-found page aside, by path, with what only a header can say.
 */
export function sitePagePolicies(policies: ReadonlyMap<string, string>, slugs: string[]): Record<string, string> {
  const inSurvey = (pathname: string) => slugs.some((slug) => pathname === `/${slug}` || pathname.startsWith(`/${slug}/`));
  return Object.fromEntries(
    [...policies]
      .filter(([pathname]) => pathname !== '/404' && !inSurvey(pathname))
      .map(([pathname, policy]) => [pathname, mergePolicies([policy], HEADER_ONLY_DIRECTIVES)]),
  );
}

/** An inline script or stylesheet of a page: its hash sources, as a policy names them, and how it starts. */
interface InlineCode {
  directive: 'script-src' | 'style-src';
  hashes: string[];
  start: string;
}

/** The inline scripts (those a browser runs) and stylesheets an HTML page holds. */
function inlineCode(html: string): InlineCode[] {
  const found: InlineCode[] = [];
  for (const [, tag, attributes, body] of html.matchAll(/<(script|style)\b([^>]*)>([\s\S]*?)<\/\1>/gi)) {
    const script = tag!.toLowerCase() === 'script';
    if (script && /\ssrc\s*=/i.test(attributes!)) continue;
    const type = /\stype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes!)?.[1]?.toLowerCase();
    if (script && type && !['module', 'text/javascript', 'application/javascript'].includes(type)) continue;
    found.push({
      directive: script ? 'script-src' : 'style-src',
      hashes: ['sha256', 'sha384', 'sha512'].map((algorithm) => `'${algorithm}-${createHash(algorithm).update(body!).digest('base64')}'`),
      start: `<${tag}${attributes}>${body!.slice(0, 40)}`,
    });
  }
  return found;
}

/**
 * A page's policy with only the hashes of what the page itself writes inline. Astro gives every
 * page the hashes of every inline script of the build (another page's language switch, another
 * survey's); each is an allowance the page does not need, and about 50 bytes that every visit
 * downloads twice, in the header and in the <meta>. Throws, naming it, when the page writes
 * inline what its policy would block: the browser would refuse to run it.
 */
export function ownPolicy(policy: string, html: string): string {
  const code = inlineCode(html);
  const own = new Set(code.flatMap((each) => each.hashes));
  const isHash = (source: string) => /^'sha(256|384|512)-/.test(source);
  const directives = parsePolicy(policy);
  // What the page writes inline and its policy would block: Astro left its hash out (it once did, for a page that waited on anything before its head).
  const blocked = code.filter(({ directive, hashes }) => {
    const sources = directives.get(directive) ?? directives.get('default-src') ?? [];
    return !hashes.some((hash) => sources.includes(hash)) && !(sources.includes("'unsafe-inline'") && !sources.some(isHash));
  });
  if (blocked.length) throw new Error(`its policy blocks what it writes inline: ${blocked.map(({ start }) => start).join(', ')}`);
  return [...directives]
    .map(([name, sources]) => {
      const kept = sources.filter((source) => !isHash(source) || own.has(source));
      return `${name} ${kept.length ? kept.join(' ') : "'none'"}`;
    })
    .join('; ');
}

/** The file, beside the built server, of each page's own header policy (bin/serve.mjs reads it). */
export const PAGE_POLICIES_FILE = 'page-policies.json';

/** Each page's header policy, by its path (`/{slug}`, `/{slug}/thankyou`…): its own, plus what only a header can say. */
export function pagePolicies(policies: ReadonlyMap<string, string>): Record<string, string> {
  return Object.fromEntries([...policies].map(([pathname, policy]) => [pathname, mergePolicies([policy], HEADER_ONLY_DIRECTIVES)]));
}

/** The built file of a page's path, as `build.format: 'directory'` writes it: `/404` → `404.html`, `/{slug}` → `{slug}/index.html`. */
export function pageFile(pathname: string): string {
  return pathname === '/404' ? '404.html' : `${pathname.replace(/^\/+|\/+$/g, '')}/index.html`.replace(/^\//, '');
}

/**
 * A page's HTML with its policy also in a `<meta http-equiv>`, placed before the first stylesheet,
 * linked or inline (else at the end of the head): a host that does not send `_headers` still
 * enforces it, and a browser has it before it meets anything the policy governs. The header adds
 * what a `<meta>` cannot say (frame-ancestors).
 */
export function withMetaPolicy(html: string, policy: string): string {
  const meta = `<meta http-equiv="content-security-policy" content="${policy.replaceAll('&', '&amp;').replaceAll('"', '&quot;')}">`;
  const end = html.indexOf('</head>');
  const sheets = ['<link rel="stylesheet"', '<style'].map((tag) => html.indexOf(tag)).filter((at) => at !== -1 && (end === -1 || at < end));
  const place = sheets.length ? Math.min(...sheets) : end;
  return place === -1 ? html : html.slice(0, place) + meta + html.slice(place);
}

/**
 * Writes `_redirects` and `_headers` beside the built pages, and each page's policy into its
 * `<meta>`. The Node adapter's `staticHeaders` makes Astro hand each page's policy to the build
 * (with the hashes of what it inlined) as the page's headers: both are written from those.
 */
export default function staticHostRules(): AstroIntegration {
  let policies = new Map<string, string>();
  let serverDir: URL | undefined;
  return {
    name: 'peervote:static-host-rules',
    hooks: {
      'astro:config:done': ({ config }) => {
        serverDir = config.build.server;
      },
      'astro:build:generated': ({ routeToHeaders }) => {
        policies = routePolicies(routeToHeaders);
      },
      'astro:build:done': ({ dir, logger }) => {
        // Each survey's folder, and one under each further language it offers (`es/{slug}`), with pages and personal links of its own.
        const slugs = loadAllSurveys().flatMap(({ slug, config }) => [slug, ...config.languages.slice(1).map((lang) => `${lang}/${slug}`)]);
        const rules = redirectRules(slugs, loadSite().default_survey);
        writeFileSync(new URL('_redirects', dir), rules);
        for (const [pathname, policy] of policies) {
          const file = new URL(pageFile(pathname), dir);
          if (!existsSync(file)) {
            logger.warn(`no built page at ${pageFile(pathname)} for ${pathname}: its policy is in _headers only`);
            continue;
          }
          const html = readFileSync(file, 'utf8');
          let own: string;
          try {
            own = ownPolicy(policy, html);
          } catch (error) {
            throw new Error(`${pageFile(pathname)}: ${(error as Error).message}`);
          }
          policies.set(pathname, own);
          writeFileSync(file, withMetaPolicy(html, own));
        }
        const notFound = policies.get('/404');
        // bin/serve.mjs sends each page its own policy; a static host, matching `_headers` before
        // it rewrites a personal link, sends the page its folder's.
        if (serverDir) writeFileSync(new URL(PAGE_POLICIES_FILE, serverDir), JSON.stringify(pagePolicies(policies)));
        writeFileSync(
          new URL('_headers', dir),
          headerRules(surveyPolicies(policies, slugs), notFound && mergePolicies([notFound], HEADER_ONLY_DIRECTIVES), sitePagePolicies(policies, slugs)),
        );
        logger.info(
          `wrote _redirects (${rules.trim().split('\n').length} rules) and _headers (a Content-Security-Policy for each of ${slugs.length} surveys, the site's own pages, the not-found page and the images) for static hosts`,
        );
      },
    },
  };
}
