import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRoute } from 'astro';

/** The conformance report the statement links to, published as written in docs/ (OpenACR, YAML). */
export const GET: APIRoute = () =>
  new Response(readFileSync(join(process.cwd(), 'docs/accessibility-conformance.yaml'), 'utf8'), {
    headers: { 'Content-Type': 'text/yaml; charset=utf-8' },
  });
