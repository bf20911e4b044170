// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import staticHostRules from './src/integrations/static-host-rules.ts';
import nomineeLists from './src/integrations/nominee-lists.ts';
import { loadSite } from './src/survey/loader.ts';

const site = loadSite();

/** The largest request body the survey API reads, in bytes (ballot fields plus files). */
const bodySizeLimit = Number(process.env.BODY_SIZE_LIMIT ?? 12 * 1024 * 1024);

export default defineConfig({
  output: 'static',
  trailingSlash: 'ignore',
  adapter: node({ mode: 'standalone', bodySizeLimit }),
  integrations: [react(), nomineeLists(), staticHostRules()],
  security: {
    checkOrigin: true,
  },
  redirects: {
    '/': `/${site.default_survey}/`,
  },
  build: {
    format: 'directory',
  },
  devToolbar: { enabled: false },
});
