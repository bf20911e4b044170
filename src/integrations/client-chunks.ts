import type { ViteUserConfig } from 'astro';

// Rolldown's chunking types, reached through the Vite config type Astro exports: Vite comes with
// Astro, so the project does not list it as a dependency of its own.
type ClientOutput = Extract<NonNullable<NonNullable<NonNullable<ViteUserConfig['build']>['rolldownOptions']>['output']>, { codeSplitting?: unknown }>;
type CodeSplittingOptions = Extract<NonNullable<ClientOutput['codeSplitting']>, object>;
type ChunkGroup = NonNullable<CodeSplittingOptions['groups']>[number];
type ChunkingContext = Parameters<Extract<ChunkGroup['name'], (...args: never[]) => unknown>>[1];

/** React and its DOM renderer, in the browser's production builds. */
const REACT = /[\\/]node_modules[\\/](?:react|react-dom|scheduler)[\\/]/;
/** Modules that render with React: the islands' components and the stores' React bindings. */
const UI = /\.tsx$|[\\/]node_modules[\\/]@nanostores[\\/]react[\\/]/;
/** What the ballot page runs as it loads: its islands and its own code, all started from src/ballot/islands.ts. */
const BALLOT_FIRST_LOAD = /[\\/]src[\\/]ballot[\\/]islands\.ts$/;

/** True for a component more than one module imports (a part several islands share), not one that lives inside a single island. */
function sharedComponent(id: string, ctx: ChunkingContext): boolean {
  const info = ctx.getModuleInfo(id);
  return !!info && !info.isEntry && info.importers.length + info.dynamicImporters.length > 1;
}

/** True when the ballot page's first load imports the module, directly or through others (static imports only). */
function onBallotFirstLoad(id: string, ctx: ChunkingContext, seen = new Set<string>()): boolean {
  if (BALLOT_FIRST_LOAD.test(id)) return true;
  seen.add(id);
  return (ctx.getModuleInfo(id)?.importers ?? []).some((importer) => !seen.has(importer) && onBallotFirstLoad(importer, ctx, seen));
}

/**
 * How the browser's JavaScript is cut into files. Left alone, Rolldown gives every set of
 * entries that shares a module its own chunk: about thirty files of 1 KB on the ballot page,
 * each a request. Here the plain modules (stores, survey rules, nanostores, superstruct) shared
 * by what the ballot page runs as it loads make one chunk, and React with the components several
 * islands share another; each entry and each lazy part (search, ballot checks, drafts, error
 * summary, reservations) keeps its own file, and the other pages are cut as Rolldown sees fit.
 */
export const clientCodeSplitting: CodeSplittingOptions = {
  groups: [
    {
      name: (id, ctx) => (onBallotFirstLoad(id, ctx) ? 'shared' : null),
      test: (id) => !UI.test(id) && !REACT.test(id),
      tags: ['$initial'],
      minShareCount: 2,
      priority: 2,
    },
    { name: (id, ctx) => (REACT.test(id) || sharedComponent(id, ctx) ? 'react' : null), test: (id) => REACT.test(id) || UI.test(id), priority: 1 },
  ],
};
