import type { AstroIntegration } from 'astro';

/** The survey API's one endpoint, which answers every route of its table (src/server/routes.ts). */
const ENDPOINT = './src/pages/api/[...route].ts';

/**
 * Each fixed address of the API's route table (`/api/survey`, `/api/health`: no `:name` part) as an
 * Astro route of its own, answered by the same endpoint as every other. Astro matches such a
 * route by its path alone; through the rest parameter of `/api/[...route]` it works out and
 * checks the parameter on every request, some 15 µs of every ballot. The endpoint finds the
 * table's route by the pattern Astro matched (src/server/route-handlers.ts).
 */
export function fixedApiRoutes(routes: readonly { readonly path: string }[]): AstroIntegration {
  return {
    name: 'peervote:fixed-api-routes',
    hooks: {
      'astro:config:setup': ({ injectRoute }) => {
        for (const route of routes) if (!route.path.includes(':')) injectRoute({ pattern: route.path, entrypoint: ENDPOINT });
      },
    },
  };
}
