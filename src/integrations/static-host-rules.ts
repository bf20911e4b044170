import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { listSurveySlugs, loadSite } from '../survey/loader.ts';
import { HEADER_ONLY_DIRECTIVES, mergePolicies, staticHeaders } from '../survey/headers.ts';

/**
 * The rules a static host needs, in the `_redirects` format that Netlify and Cloudflare
 * Pages read (and that `bin/serve.mjs` applies too): index.html to its folder, `/` to the
 * default survey, and every personal link `/{slug}/{secret}` rewritten to its survey's
 * personal-link page, which reads the secret in the browser. A `!` forces a rule even
 * where a file exists at the path.
 */
export function redirectRules(slugs: string[], defaultSurvey: string): string {
  const lines = ['/index.html  /  301!', `/  /${defaultSurvey}/  302!`];
  for (const slug of slugs) {
    lines.push(`/${slug}/index.html  /${slug}/  301!`, `/${slug}/:secret  /${slug}/personal-link/  200`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The `_headers` file for static hosts, the same headers `bin/serve.mjs` sends: the hardening
 * headers for every path, and for each survey's folder its Content-Security-Policy. A host
 * sends every block whose path matches, so no policy sits under `/*`, where it would add to
 * (and so narrow) each survey's own.
 */
export function headerRules(surveyPolicies: Record<string, string> = {}): string {
  const block = (pattern: string, headers: Record<string, string>) =>
    `${pattern}\n${Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`).join('\n')}\n`;
  return [block('/*', staticHeaders()), ...Object.entries(surveyPolicies).map(([slug, policy]) => block(`/${slug}/*`, { 'Content-Security-Policy': policy }))].join('');
}

const META_POLICY = /<meta http-equiv="content-security-policy" content="([^"]*)"/i;

/** The policy Astro wrote into a page's <meta http-equiv>, if any. */
export function metaPolicy(html: string): string | undefined {
  const content = META_POLICY.exec(html)?.[1];
  return content?.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.html'))
    .map((file) => path.join(dir, file));
}

/**
 * Each survey's header policy: every one of its pages' <meta> policies merged (a personal link
 * is rewritten to one of them, and a host may match headers before it rewrites), plus what
 * only a header can say (frame-ancestors).
 */
export function surveyPolicies(clientDir: string, slugs: string[]): Record<string, string> {
  return Object.fromEntries(
    slugs.map((slug) => {
      const policies = htmlFiles(path.join(clientDir, slug))
        .map((file) => metaPolicy(readFileSync(file, 'utf8')))
        .filter((policy): policy is string => Boolean(policy));
      return [slug, mergePolicies(policies, HEADER_ONLY_DIRECTIVES)];
    }),
  );
}

/** Writes `_redirects` and `_headers` beside the built pages. */
export default function staticHostRules(): AstroIntegration {
  return {
    name: 'peervote:static-host-rules',
    hooks: {
      'astro:build:done': ({ dir, logger }) => {
        const slugs = listSurveySlugs();
        const rules = redirectRules(slugs, loadSite().default_survey);
        writeFileSync(new URL('_redirects', dir), rules);
        writeFileSync(new URL('_headers', dir), headerRules(surveyPolicies(fileURLToPath(dir), slugs)));
        logger.info(`wrote _redirects (${rules.trim().split('\n').length} rules) and _headers (a Content-Security-Policy for each of ${slugs.length} surveys) for static hosts`);
      },
    },
  };
}
