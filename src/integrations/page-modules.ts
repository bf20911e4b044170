import type { VitePlugin } from './vite-plugin.ts';

/** The module that maps each on-demand route to its code: `const _pageN = () => import("…");` a route. */
const PAGES_MODULE = '\0virtual:astro:pages';
const PAGE_IMPORT = /const (_page\d+) = \(\) => import\(("[^"\n]+")\);/g;

/** Loads a module once: later calls get the same promise; a load that failed is tried again next time. */
const ONCE = 'function __loadOnce(load) { let loading; return () => (loading ??= load().catch((error) => { loading = undefined; throw error; })); }';

/**
 * The server's route modules, each imported once. Astro's server calls a route's `() => import()`
 * for every request it answers, and Node resolves the module again each time (its loader's
 * resolution and job lookup) before handing back the module it already has: some 20 µs of every
 * ballot. Here each of those functions keeps the promise of its first call. Only the server build
 * (the `ssr` environment) is changed; a version of Astro that writes the module otherwise is left
 * as it is.
 */
export function routeModulesOnce(): VitePlugin {
  return {
    name: 'peervote:route-modules-once',
    applyToEnvironment: (environment) => environment.name === 'ssr',
    transform(code, id) {
      if (id !== PAGES_MODULE) return undefined;
      const once = onceImports(code);
      if (once !== code) return { code: once, map: null };
      // Astro writes the module otherwise now: the server still works, each request importing again.
      if (code.includes('import(')) this.warn('the route modules are imported in a form this plugin does not know; each request imports its route again');
      return undefined;
    },
  };
}

/** The pages module's source with each `() => import(…)` loading once (unchanged when it holds none). */
export function onceImports(code: string): string {
  let found = false;
  const replaced = code.replace(PAGE_IMPORT, (_, name: string, specifier: string) => {
    found = true;
    return `const ${name} = __loadOnce(() => import(${specifier}));`;
  });
  return found ? `${ONCE}\n${replaced}` : code;
}
