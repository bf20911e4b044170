import { writeFileSync } from 'node:fs';
import type { AstroIntegration } from 'astro';
import { listSurveySlugs, loadSite } from '../survey/loader.ts';
import { staticHeaders } from '../survey/headers.ts';

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

/** The `_headers` file for static hosts: the same headers `bin/serve.mjs` sends. */
export function headerRules(): string {
  return `/*\n${Object.entries(staticHeaders()).map(([name, value]) => `  ${name}: ${value}`).join('\n')}\n`;
}

/** Writes `_redirects` and `_headers` beside the built pages. */
export default function staticHostRules(): AstroIntegration {
  return {
    name: 'peervote:static-host-rules',
    hooks: {
      'astro:build:done': ({ dir, logger }) => {
        const rules = redirectRules(listSurveySlugs(), loadSite().default_survey);
        writeFileSync(new URL('_redirects', dir), rules);
        writeFileSync(new URL('_headers', dir), headerRules());
        logger.info(`wrote _redirects (${rules.trim().split('\n').length} rules) and _headers for static hosts`);
      },
    },
  };
}
