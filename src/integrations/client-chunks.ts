import type { ViteUserConfig } from 'astro';

// Rolldown's chunking types, reached through the Vite config type Astro exports: Vite comes with
// Astro, so the project does not list it as a dependency of its own.
type ClientOutput = Extract<NonNullable<NonNullable<NonNullable<ViteUserConfig['build']>['rolldownOptions']>['output']>, { codeSplitting?: unknown }>;
type CodeSplittingOptions = Extract<NonNullable<ClientOutput['codeSplitting']>, object>;
type ChunkGroup = NonNullable<CodeSplittingOptions['groups']>[number];
type ChunkingContext = Parameters<Extract<ChunkGroup['name'], (...args: never[]) => unknown>>[1];

/** React and its DOM renderer, in the browser's production builds. */
const REACT = /[\\/]node_modules[\\/](?:react|react-dom|scheduler)[\\/]/;
/** A package's module, or Vite's helper for lazy imports: no language's own. */
const PACKAGE = /[\\/]node_modules[\\/]|^\0?vite\/preload-helper/;
/** What the ballot page runs as it loads: its islands and its own code, all started from src/ballot/islands.ts (in any language's copy, src/integrations/language-forks.ts). */
const BALLOT_FIRST_LOAD = /[\\/]src[\\/]ballot[\\/]islands\.ts(?:\?locale=[\w-]+)?$/;
/** The language of a module's copy (src/integrations/language-forks.ts), as a chunk's name ends. */
const languageOf = (id: string) => /[?&]locale=([\w-]+)$/.exec(id)?.[1];

/** True when the ballot page's first load imports the module, directly or through others (static imports only). */
function onBallotFirstLoad(id: string, ctx: ChunkingContext, seen = new Set<string>()): boolean {
  if (BALLOT_FIRST_LOAD.test(id)) return true;
  seen.add(id);
  return (ctx.getModuleInfo(id)?.importers ?? []).some((importer) => !seen.has(importer) && onBallotFirstLoad(importer, ctx, seen));
}

/**
 * How the browser's JavaScript is cut into files. Left alone, Rolldown gives every set of
 * entries that shares a module its own chunk: about thirty files of 1 KB on the ballot page,
 * each a request. Here the project's own modules (stores, survey rules, components several
 * islands share) that the ballot page runs as it loads make one chunk per language, `shared` and
 * `shared-es`, as the islands are built once per language; React and the packages they use make
 * another, `react`, the same for every language. Each entry and each lazy part (search, ballot
 * checks, drafts, error summary, reservations) keeps its own file, and the other pages are cut as
 * Rolldown sees fit.
 */
export const clientCodeSplitting: CodeSplittingOptions = {
  groups: [
    {
      name: (id, ctx) => {
        if (!onBallotFirstLoad(id, ctx)) return null;
        const language = languageOf(id);
        return language ? `shared-${language}` : 'shared';
      },
      test: (id) => !PACKAGE.test(id),
      tags: ['$initial'],
      minShareCount: 2,
      priority: 2,
    },
    { name: (id, ctx) => (REACT.test(id) || onBallotFirstLoad(id, ctx) ? 'react' : null), test: (id) => PACKAGE.test(id), priority: 3 },
  ],
};
