// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import staticHostRules from './src/integrations/static-host-rules.ts';
import precompress from './src/integrations/precompress.ts';
import cliBundle from './src/integrations/cli-bundle/index.ts';
import afterPaint from './src/integrations/after-paint/index.ts';
import { publishedResults, surveyCheck } from './src/integrations/survey-files.ts';
import { readServerConfig } from './src/server/config.ts';
import { API_ROUTES } from './src/server/routes.ts';
import { clientCodeSplitting, messageCalls } from './src/integrations/client-chunks.ts';
import { routeModulesOnce } from './src/integrations/page-modules.ts';
import { exportNodeApp } from './src/integrations/node-app.ts';
import { sharedContextAccessors } from './src/integrations/context-accessors/index.ts';
import { fixedApiRoutes } from './src/integrations/api-routes.ts';
import { sourceAddresses } from './src/integrations/source-addresses.ts';
import editorSchemas from './src/integrations/editor-schemas.ts';
import messages, { PSEUDO_LOCALE_DEFINE } from './src/integrations/messages.ts';
import languageForks from './src/integrations/language-forks.ts';

// One reading of the environment for the build and the server (src/server/config.ts): a wrong
// value stops the build with the variable's name.
const { bodySizeLimit, allowedDomains } = readServerConfig();

/** The largest stylesheet written into its pages (bytes): the voter's pages' sheet fits, the console's does not. */
const INLINE_STYLESHEET_LIMIT = 16 * 1024;

export default defineConfig({
  output: 'static',
  trailingSlash: 'ignore',
  // Middleware mode: bin/serve.mjs serves the files and hands Astro the API; `staticHeaders` gives
  // each built page's headers (its Content-Security-Policy) to the build instead of a <meta>.
  adapter: node({ mode: 'middleware', bodySizeLimit, staticHeaders: true }),
  // No sessions: the API keeps no state between a voter's requests. Without this the Node adapter
  // makes a session store on files, which Astro readies for every request it answers.
  session: false,
  integrations: [
    // First: a survey with a problem stops the build before anything else is set up.
    surveyCheck(),
    messages(),
    languageForks(),
    react(),
    editorSchemas(),
    fixedApiRoutes(API_ROUTES),
    afterPaint(),
    publishedResults(),
    staticHostRules(),
    precompress(),
    cliBundle(),
  ],
  security: {
    // src/middleware.ts checks the origin of every API post instead: Astro's check admits only
    // the request's own origin, and a site served from a CDN posts from another (ALLOWED_ORIGINS).
    checkOrigin: false,
    // ALLOWED_DOMAINS (docs/api.md): Astro then trusts X-Forwarded-Proto/Host for those names
    // only, so a request's origin is the public https one.
    allowedDomains: allowedDomains.map((hostname) => ({ hostname, protocol: 'https' })),
    // Astro hashes the scripts and styles it inlines into each page's policy; the pages add the
    // rest (src/components/BaseHead.astro). With the adapter's `staticHeaders`, the policy
    // is a header, not a <meta>: the build writes it to `_headers` (static-host-rules.ts).
    csp: true,
  },
  // redirects: '/' goes to site.yaml's default survey, set by surveyCheck once site.yaml is checked.
  build: {
    format: 'directory',
    // Stylesheets within the limit below go into the page as a <style>: the voter's pages (about
    // 14 KB, 3.5 KB compressed) paint without waiting for a second request, which put the demo
    // page's largest paint at 1.19x its plain-HTML copy's. Astro hashes each into the page's
    // style-src. The console's larger sheet stays a file, cached for good across its pages.
    inlineStylesheets: 'auto',
  },
  devToolbar: { enabled: false },
  vite: {
    // 'auto' above inlines a stylesheet under this many bytes; every other asset keeps Vite's own 4 KiB limit.
    build: { assetsInlineLimit: (file, content) => (file.endsWith('.css') ? content.length <= INLINE_STYLESHEET_LIMIT : undefined) },
    plugins: [
      routeModulesOnce(),
      messageCalls(),
      exportNodeApp(),
      sharedContextAccessors(),
      sourceAddresses(),
      // Bundled into the built server, not loaded from node_modules as they are: Kysely, YAML and
      // Zod are some 430 small modules, and the server then starts on 1.2 s of processor time
      // instead of 1.4. Only when building: `astro dev` loads them from node_modules, as its
      // module runner cannot run YAML's CommonJS build.
      { name: 'peervote:bundle-server-libraries', apply: 'build', config: () => ({ ssr: { noExternal: ['kysely', 'yaml', 'zod'] } }) },
    ],
    // Sentry's build flags: no debug logging, no performance tracing. Errors are all we send,
    // and the browser SDK (built only with PUBLIC_SENTRY_DSN) shrinks by about half.
    // A test build's pages and server offer its pseudo-locale, whatever the server later runs with (src/i18n/pseudo.ts).
    define: { __SENTRY_DEBUG__: 'false', __SENTRY_TRACING__: 'false', ...PSEUDO_LOCALE_DEFINE },
    environments: { client: { build: { rolldownOptions: { output: { codeSplitting: clientCodeSplitting } } } } },
  },
});
