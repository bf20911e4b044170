import path from 'node:path';
import { pathToFileURL } from 'node:url';

// The folder of the command line's bundled threads, which its bundle names here
// (src/integrations/cli-bundle/); no name at all where the sources run, or in the server's build.
declare const PEERVOTE_BUNDLED_THREADS: string | undefined;

/**
 * The module a thread runs, given its source (`new URL('./x.worker.ts',
 * import.meta.url)`): the bundle's JavaScript of it when the bundled command line starts it,
 * the source otherwise. A thread of the sources loads Node's type stripper and its modules one
 * by one: a tally's two threads took 0.14 s of processor time more that way than the bundle's
 * (0.04 s where NODE_COMPILE_CACHE keeps their compiled code, as in the tests).
 */
export function threadModule(source: URL): URL {
  if (typeof PEERVOTE_BUNDLED_THREADS !== 'string') return source;
  return pathToFileURL(path.join(PEERVOTE_BUNDLED_THREADS, path.basename(source.pathname).replace(/\.ts$/, '.mjs')));
}
