/// <reference types="vitest/config" />
import { execFileSync } from 'node:child_process';
import { defineConfig } from 'vitest/config';
import { throwawayPostgresWanted } from './tests/support/preflight.mjs';
import { shareCompiledCode } from './tests/support/server.mjs';

shareCompiledCode();

/**
 * The API tests: real HTTP against the built server (built once in the global setup), run once
 * per database. SQLite always; PostgreSQL at TEST_DATABASE_URL, or on a throwaway cluster from
 * tests/support/postgres.sh when CI (or PEERVOTE_TEST_POSTGRES=1) asks for one.
 */
function postgresUrl(): string {
  if (process.env.TEST_DATABASE_URL) return process.env.TEST_DATABASE_URL;
  if (!throwawayPostgresWanted()) return '';
  const url = execFileSync('bash', ['tests/support/postgres.sh', 'start'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  process.env.PEERVOTE_STARTED_POSTGRES = url;
  return url;
}

const pg = postgresUrl();
if (!pg) console.warn('API tests: PostgreSQL skipped (set TEST_DATABASE_URL, or PEERVOTE_TEST_POSTGRES=1 to start one).');

const dialects = [{ name: 'api-sqlite', databaseUrl: '' }, ...(pg ? [{ name: 'api-postgres', databaseUrl: pg }] : [])];

export default defineConfig({
  test: {
    globalSetup: ['tests/api/global-setup.ts'],
    // Three files on two cores (Vitest's default leaves one free): a file mostly waits on the
    // server and the command-line runs it starts. Beside the end-to-end tests, which hold one core,
    // two at a time left the other half idle; in npm test's run three took 450 s against 469.
    maxWorkers: '150%',
    // One worker process runs many files, as the unit tests' does: a fresh process per file cost
    // about 1.4 CPU-s each to start and load the helpers. The files share no state but their
    // servers' (each starts its own), and the helpers keep none of their own.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: dialects.map(({ name, databaseUrl }) => ({
      extends: true,
      test: { name, include: ['tests/api/**/*.test.ts'], provide: { databaseUrl } },
    })),
  },
});
