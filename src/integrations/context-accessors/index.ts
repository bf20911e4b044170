import { fileURLToPath } from 'node:url';
import type { VitePlugin } from '../vite-plugin.ts';

/** Astro's per-request state, where its context objects are made. */
const FETCH_STATE = /[\\/]astro[\\/]dist[\\/]core[\\/]fetch[\\/]fetch-state\.js$/;

/** The module whose accessors take the place of Astro's inline ones (./accessors.ts). */
const ACCESSORS = fileURLToPath(new URL('./accessors.ts', import.meta.url));

/** One place in Astro's source that makes per-request getters, and what makes the object instead. */
interface Rewrite {
  /** The object, in words, for the build's warning when the source no longer reads as expected. */
  readonly what: string;
  /** The source as Astro 7 writes it; whitespace may differ. */
  readonly from: string;
  readonly to: string;
}

const REWRITES: readonly Rewrite[] = [
  {
    what: 'the render options',
    // The options' other properties, spread before it, stay as Astro writes them.
    from: `get locals() {
        return self.locals;
      }
    };`,
    to: `};
    __peervoteAccessors.renderOptions(this.renderOptions, self);`,
  },
  {
    what: "an endpoint's context",
    from: `const ctx = {
      get cookies() {
        return state.cookies;
      },
      routePattern: this.routeData.route,
      isPrerendered: this.routeData.prerender,
      get clientAddress() {
        return state.getClientAddress();
      },
      get currentLocale() {
        return state.computeCurrentLocale();
      },
      generator: ASTRO_GENERATOR,
      get locals() {
        return state.locals;
      },
      set locals(_) {
        throw new AstroError(AstroErrorData.LocalsReassigned);
      },
      // SAFETY: getActionAPIContext is only called after route resolution,
      // so routeData is always set and the params getter always returns a value.
      params: this.params,
      get preferredLocale() {
        return state.computePreferredLocale();
      },
      get preferredLocaleList() {
        return state.computePreferredLocaleList();
      },
      request: this.request,
      site: getSite(this.manifest),
      url: this.url,
      get originPathname() {
        return getOriginPathname(state.request);
      },
      get csp() {
        return state.getCsp();
      },
      get logger() {
        return astroToRuntimeLogger(state.logger);
      }
    };`,
    to: `const ctx = __peervoteAccessors.actionContext(state, {
      routePattern: this.routeData.route,
      isPrerendered: this.routeData.prerender,
      generator: ASTRO_GENERATOR,
      params: this.params,
      request: this.request,
      site: getSite(this.manifest),
      url: this.url
    });`,
  },
  {
    what: "the providers' getters",
    from: `defineProviderGetters(target) {
    const state = this;
    if (this.#providers) {
      for (const key of this.#providers.keys()) {
        Object.defineProperty(target, key, {
          get: () => state.resolve(key),
          enumerable: true,
          configurable: true
        });
      }
    }
    if (!this.#providers?.has("session")) {
      let warned = false;
      Object.defineProperty(target, "session", {
        get() {
          if (!warned) {
            warned = true;
            state.logger.warn(
              "session",
              "\`Astro.session\` was accessed but no session storage is configured. Either configure the storage manually or use an adapter that provides session storage. For more information, see https://docs.astro.build/en/guides/sessions/"
            );
          }
          return void 0;
        },
        enumerable: true,
        configurable: true
      });
    }
  }`,
    to: `defineProviderGetters(target) {
    __peervoteAccessors.defineProviderAccessors(target, this, this.#providers);
  }`,
  },
];

/** The source `from` as a pattern that lets whitespace differ wherever it has some, and nothing else. */
function sourcePattern(from: string): RegExp {
  const escaped = from
    .trim()
    .split(/\s+/)
    .map((token) => token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(escaped.join('\\s*'));
}

/** What the endpoint context's accessors call of Astro itself, in scope where its context was rewritten. */
const ASTRO_PARTS = `__peervoteAccessors.setAstroParts({
  localsReassigned() {
    throw new AstroError(AstroErrorData.LocalsReassigned);
  },
  originPathname: getOriginPathname,
  runtimeLogger: astroToRuntimeLogger
});`;

/**
 * Astro's fetch-state module with its per-request getters replaced by the shared accessors of
 * `accessorsModule`, and the objects it no longer recognises (`missing`, a newer Astro's) left
 * as they are: each rewrite stands alone, and the objects stay what Astro makes either way.
 */
export function withSharedAccessors(code: string, accessorsModule: string = ACCESSORS): { code: string; missing: string[] } {
  let rewritten = code;
  const missing: string[] = [];
  for (const rewrite of REWRITES) {
    const pattern = sourcePattern(rewrite.from);
    if (pattern.test(rewritten)) rewritten = rewritten.replace(pattern, () => rewrite.to);
    else missing.push(rewrite.what);
  }
  if (missing.length === REWRITES.length) return { code, missing };
  const contextRewritten = !missing.includes(REWRITES[1].what);
  return {
    code: `import * as __peervoteAccessors from ${JSON.stringify(accessorsModule)};\n${rewritten}\n${contextRewritten ? ASTRO_PARTS : ''}\n`,
    missing,
  };
}

/**
 * Gives the server build's Astro shared accessors on its per-request objects (./accessors.ts
 * says why: every ballot's objects were promoted to the old generation). Only the server build
 * is changed; an object whose source reads otherwise is left as Astro makes it, with a warning.
 */
export function sharedContextAccessors(): VitePlugin {
  return {
    name: 'peervote:shared-context-accessors',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'ssr',
    transform(code, id) {
      if (!FETCH_STATE.test(id)) return undefined;
      const { code: rewritten, missing } = withSharedAccessors(code);
      if (missing.length)
        this.warn(`Astro's fetch state no longer reads as expected; its own getters stay on ${missing.join(', ')}, and each request's objects outlive it.`);
      return rewritten === code ? undefined : { code: rewritten, map: null };
    },
  };
}
