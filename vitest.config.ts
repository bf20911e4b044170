/// <reference types="vitest/config" />
import { getViteConfig } from 'astro/config';

// Unit tests: pure rules, run through Astro's Vite config. The API tests over HTTP have their
// own configuration (vitest.api.config.ts, `npm run test:api`).
export default getViteConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/lint/**/*.test.ts'],
    testTimeout: 120_000,
  },
});
