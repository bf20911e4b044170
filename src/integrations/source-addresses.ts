import { pathToFileURL } from 'node:url';
import type { VitePlugin } from './vite-plugin.ts';

/** The operator's modules the console's acts run in the server, whose `import.meta.url` names files beside them. */
const RESULTS = /\/src\/results\/.+\.ts$/;

/**
 * Keeps `import.meta.url` of the operator's modules (src/results/) pointing at the source file,
 * not at the server's chunk, as the command line's bundle does (cli-bundle/): the tally's threads
 * (ballot-reader.worker.ts, identity-register.worker.ts) and the published verify.mjs are found
 * beside the modules that start or copy them when the console counts or publishes. Node runs the
 * threads' TypeScript itself, as it does for the command line.
 */
export function sourceAddresses(): VitePlugin {
  return {
    name: 'peervote:source-addresses',
    apply: 'build',
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.name === 'ssr',
    transform(code, id) {
      const file = id.split('?')[0];
      if (!RESULTS.test(file) || !code.includes('import.meta.url')) return undefined;
      return { code: code.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(file).href)), map: null };
    },
  };
}
