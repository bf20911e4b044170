/// <reference types="vitest/config" />
import { getViteConfig } from 'astro/config';
import { shareCompiledCode } from './tests/support/server.mjs';

shareCompiledCode();

// Unit tests: pure rules, run through Astro's Vite config. The API tests over HTTP have their
// own configuration (vitest.api.config.ts, `npm run test:api`).
export default getViteConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/lint/**/*.test.ts'],
    testTimeout: 120_000,
    // One worker runs many files, instead of a fresh one per file: starting a worker and loading
    // Astro's Vite config each time cost more than the tests themselves. What a test changes of
    // the shared process goes back after it: spies, stubbed globals and environment variables.
    isolate: false,
    // One worker per core (Vitest's default leaves one free): on two cores, twice as fast.
    maxWorkers: '100%',
    restoreMocks: true,
    unstubGlobals: true,
    unstubEnvs: true,
  },
});
