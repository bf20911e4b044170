import { fileURLToPath } from 'node:url';
import type { ViteUserConfig } from 'astro';
import type { Plugin } from 'vite';

// Rolldown's chunking types, reached through the Vite config type Astro exports: Vite comes with
// Astro, so the project does not list it as a dependency of its own.
type ClientOutput = Extract<NonNullable<NonNullable<NonNullable<ViteUserConfig['build']>['rolldownOptions']>['output']>, { codeSplitting?: unknown }>;
type CodeSplittingOptions = Extract<NonNullable<ClientOutput['codeSplitting']>, object>;
type ChunkGroup = NonNullable<CodeSplittingOptions['groups']>[number];
type ChunkingContext = Parameters<Extract<ChunkGroup['name'], (...args: never[]) => unknown>>[1];

/** React and its DOM renderer, in the browser's production builds. */
const REACT = /[\\/]node_modules[\\/](?:react|react-dom|scheduler)[\\/]/;
/** Modules that render with React: the islands' components and the stores' React bindings. */
const UI = /\.tsx(?:\?locale=[\w-]+)?$|[\\/]node_modules[\\/]@nanostores[\\/]react[\\/]/;
/** What the ballot page runs as it loads: its islands and its own code, all started from src/ballot/islands.ts (in any language's copy, src/integrations/language-forks.ts). */
const BALLOT_FIRST_LOAD = /[\\/]src[\\/]ballot[\\/]islands\.ts(?:\?locale=[\w-]+)?$/;
/** The language of a module's copy (src/integrations/language-forks.ts), as a chunk's name ends. */
const languageOf = (id: string) => /[?&]locale=([\w-]+)$/.exec(id)?.[1];

const SRC = fileURLToPath(new URL('../', import.meta.url));
/** A compiled message's module (src/i18n/paraglide/messages/<key>.js), in any language's copy. */
const MESSAGE = /[\\/]src[\\/]i18n[\\/]paraglide[\\/]messages[\\/](\w+)\.js(?:\?locale=[\w-]+)?$/;

/**
 * The modules that call each message (`m.key(`), by key: the code imports the messages as one
 * namespace (src/i18n/messages.ts), whose module imports every message, so the import graph
 * alone would put every message any page's script calls into the ballot's first load.
 */
const messageCallers = new Map<string, Set<string>>();

/** Records which of the browser's modules call which message, for clientCodeSplitting below. */
export function messageCalls(): Plugin {
  return {
    name: 'peervote:message-calls',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    options(options) {
      // The groups below take no module's imports along with it (a module that imports the
      // messages would take them all), which Rolldown allows only when an entry may export more
      // than its own: Astro's islands and scripts keep their exports either way.
      options.preserveEntrySignatures = 'allow-extension';
    },
    transform(code, id) {
      if (!id.startsWith(SRC) || MESSAGE.test(id)) return;
      for (const [, key] of code.matchAll(/\bm\.(\w+)\b/g)) {
        if (!messageCallers.has(key!)) messageCallers.set(key!, new Set());
        messageCallers.get(key!)!.add(id);
      }
    },
  };
}

/** True for a component more than one module imports (a part several islands share), not one that lives inside a single island. */
function sharedComponent(id: string, ctx: ChunkingContext): boolean {
  const info = ctx.getModuleInfo(id);
  return !!info && !info.isEntry && info.importers.length + info.dynamicImporters.length > 1;
}

/**
 * True when the ballot page's first load imports the module, directly or through others (static
 * imports only); a message when a module of the first load in the same language calls it.
 */
function onBallotFirstLoad(id: string, ctx: ChunkingContext, seen = new Set<string>()): boolean {
  if (BALLOT_FIRST_LOAD.test(id)) return true;
  seen.add(id);
  const key = MESSAGE.exec(id)?.[1];
  if (key) {
    const callers = [...(messageCallers.get(key) ?? [])].filter((caller) => languageOf(caller) === languageOf(id));
    return callers.some((caller) => !seen.has(caller) && onBallotFirstLoad(caller, ctx, seen));
  }
  return (ctx.getModuleInfo(id)?.importers ?? []).some((importer) => !seen.has(importer) && onBallotFirstLoad(importer, ctx, seen));
}

/**
 * How the browser's JavaScript is cut into files. Left alone, Rolldown gives every set of
 * entries that shares a module its own chunk: about thirty files of 1 KB on the ballot page,
 * each a request. Here, in each language's copy of the code (src/integrations/language-forks.ts),
 * the plain modules the ballot page runs as it loads (stores, survey rules, messages, nanostores)
 * make one chunk, `shared-en`, and React with the components several islands share another,
 * `react-en`: the other pages (thank-you, receipt) load the first without React. Each entry and
 * each lazy part (search, ballot checks, drafts, error summary, reservations) keeps its own file,
 * and the rest is cut as Rolldown sees fit. No group takes a module's imports along: the module
 * that gives the messages imports them all, and the ballot's chunks take only those it calls.
 */
export const clientCodeSplitting: CodeSplittingOptions = {
  groups: [
    {
      // The copies without a language are for the pages rendered on request (the console): left to Rolldown.
      name: (id, ctx) => {
        const language = languageOf(id);
        return language && onBallotFirstLoad(id, ctx) ? `shared-${language}` : null;
      },
      test: (id) => !UI.test(id) && !REACT.test(id),
      tags: ['$initial'],
      minShareCount: 2,
      includeDependenciesRecursively: false,
      priority: 2,
    },
    {
      name: (id, ctx) => {
        const language = languageOf(id);
        return language && (REACT.test(id) || sharedComponent(id, ctx)) ? `react-${language}` : null;
      },
      test: (id) => REACT.test(id) || UI.test(id),
      includeDependenciesRecursively: false,
      priority: 1,
    },
  ],
};
