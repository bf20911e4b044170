import type { ViteUserConfig } from 'astro';

/** A Vite plugin, as Astro's config takes it (`vite.plugins`). */
export type VitePlugin = Extract<NonNullable<ViteUserConfig['plugins']>[number], { name: string }>;
