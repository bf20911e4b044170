import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/** Adds `client:painted` (./directive.ts): islands that hydrate once the page has painted. */
export default function afterPaint(): AstroIntegration {
  return {
    name: 'peervote:after-paint',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({ name: 'painted', entrypoint: fileURLToPath(new URL('./directive.ts', import.meta.url)) });
      },
    },
  };
}

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrates the island once the page has painted, or at the voter's first touch (./directive.ts). */
    'client:painted'?: boolean;
  }
}
