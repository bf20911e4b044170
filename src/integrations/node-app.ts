import type { VitePlugin } from './vite-plugin.ts';

/** The Node adapter's server entry (`@astrojs/node/server.js`), which makes the App and exports only its handler. */
const ADAPTER_ENTRY = /[\\/]@astrojs[\\/]node[\\/]dist[\\/]server\.js$/;
/** The App it makes, as its source declares it. */
const APP_DECLARATION = /^const app = createApp\(/m;

/**
 * The server build's entry (dist/server/entry.mjs) exports Astro's App as `astroApp` beside the
 * adapter's `handler`, so that bin/serve.mjs can hand it a ballot directly (bin/astro-app.mjs):
 * the App's `match` and `render`, the API Astro documents for an adapter's own server, without
 * the adapter's per-request stream, abort wiring and request context. Only the server build
 * (the `ssr` environment) is changed; an adapter whose entry reads otherwise is left as it is,
 * and bin/serve.mjs then hands every request to the adapter's handler.
 */
export function exportNodeApp(): VitePlugin {
  return {
    name: 'peervote:export-node-app',
    applyToEnvironment: (environment) => environment.name === 'ssr',
    transform(code, id) {
      if (!ADAPTER_ENTRY.test(id)) return undefined;
      const exported = withAppExport(code);
      if (exported !== code) return { code: exported, map: null };
      this.warn("the Node adapter's entry no longer declares its App as this plugin expects; bin/serve.mjs hands every request to the adapter's handler");
      return undefined;
    },
  };
}

/** The adapter entry's source with its App exported as `astroApp` (unchanged when it declares none as expected). */
export function withAppExport(code: string): string {
  return APP_DECLARATION.test(code) ? `${code}\nexport { app as astroApp };\n` : code;
}
