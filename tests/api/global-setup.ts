import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createDatabase, migrateToLatest } from '../../src/server/db/database.ts';
import { createPostgresDatabase, dropPostgresDatabase } from '../support/postgres-databases.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The public host the test build trusts X-Forwarded-Host for, as a deployment behind a TLS proxy would. */
export const PROXIED_HOST = 'peervote.test';

/**
 * Builds the site into dist/ with ALLOWED_DOMAINS set as a deployment behind a proxy sets it, and
 * with the pseudo-locale en-XA, as `npm test` builds it (PSEUDO_LOCALE=1, src/i18n/pseudo.ts).
 */
function build(): void {
  try {
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], {
      cwd: ROOT,
      env: { ...process.env, ALLOWED_DOMAINS: PROXIED_HOST, PSEUDO_LOCALE: '1', ASTRO_TELEMETRY_DISABLED: '1' },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    throw new Error(`astro build failed:\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`);
  }
}

/** True when dist/'s server trusts X-Forwarded-Host for PROXIED_HOST: it was built with ALLOWED_DOMAINS=PROXIED_HOST. */
function builtForProxy(): boolean {
  const entry = path.join(ROOT, 'dist/server/entry.mjs');
  return existsSync(entry) && readFileSync(entry, 'utf8').includes(`"hostname":"${PROXIED_HOST}"`);
}

/** True when dist/ has the demo's pages in the pseudo-locale: it was built with PSEUDO_LOCALE=1. */
const builtWithPseudoLocale = (): boolean => existsSync(path.join(ROOT, 'dist/client/en-XA/top-doctors-demo/index.html'));

/**
 * A database of the project's dialect migrated to the latest migration, for the tests' servers to
 * start on copies of (freshDatabase's `migrated`): on PostgreSQL at `adminUrl`, a database to
 * copy with CREATE DATABASE … TEMPLATE (its name); else an SQLite file (its path). Closed, as a
 * template must be: PostgreSQL copies no database another connection is open on.
 */
async function migratedDatabase(adminUrl: string): Promise<{ name: string; remove(): Promise<void> }> {
  const folder = adminUrl ? '' : mkdtempSync(path.join(tmpdir(), 'peervote-api-migrated-'));
  const databaseUrl = adminUrl ? await createPostgresDatabase(adminUrl, { prefix: 'peervote_migrated' }) : '';
  const { db } = adminUrl
    ? createDatabase({ databaseUrl, sqliteFile: '', sqliteSynchronous: 'NORMAL', pgPoolMax: 1 })
    : createDatabase({ sqliteFile: path.join(folder, 'peervote.sqlite'), sqliteSynchronous: 'NORMAL', pgPoolMax: 1 });
  await migrateToLatest(db);
  await db.destroy();
  return {
    name: adminUrl ? new URL(databaseUrl).pathname.slice(1) : path.join(folder, 'peervote.sqlite'),
    async remove() {
      if (adminUrl) await dropPostgresDatabase(adminUrl, databaseUrl);
      else rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * Builds the site once for every project (database) of the run, with ALLOWED_DOMAINS set as a
 * deployment behind a proxy sets it, and assembles a surveys folder: the real surveys plus the
 * test fixtures, and a migrated database per project (migratedDatabase). Stops the PostgreSQL
 * cluster the config started, at the end.
 *
 * `npm test` has built dist/ so already (PEERVOTE_TEST_BUILT=1), for the end-to-end tests too:
 * the site is then built once per run, not twice.
 */
export default async function setup(project: TestProject) {
  if (!process.env.PEERVOTE_API_BUILD) {
    if (!process.env.PEERVOTE_TEST_BUILT) build();
    else if (!builtForProxy() || !builtWithPseudoLocale())
      throw new Error(`PEERVOTE_TEST_BUILT is set, but dist/ was not built with PSEUDO_LOCALE=1 ALLOWED_DOMAINS=${PROXIED_HOST}: build so, or unset it.`);
    const surveys = mkdtempSync(path.join(tmpdir(), 'peervote-api-surveys-'));
    cpSync(path.join(ROOT, 'surveys'), surveys, { recursive: true });
    for (const name of readdirSync(path.join(ROOT, 'tests/api/fixtures/surveys'))) {
      cpSync(path.join(ROOT, 'tests/api/fixtures/surveys', name), path.join(surveys, name), { recursive: true });
    }
    process.env.PEERVOTE_API_BUILD = surveys;
  }
  project.provide('surveysDir', process.env.PEERVOTE_API_BUILD);
  // Run once, for the root project: each database's project gets a migrated database of its own.
  const migrated: Array<{ remove(): Promise<void> }> = [];
  for (const each of project.vitest.projects) {
    const database = await migratedDatabase(each.getProvidedContext().databaseUrl);
    migrated.push(database);
    each.provide('migratedDatabase', database.name);
  }
  return async () => {
    for (const database of migrated) await database.remove();
    const surveys = process.env.PEERVOTE_API_BUILD;
    if (surveys) rmSync(surveys, { recursive: true, force: true });
    delete process.env.PEERVOTE_API_BUILD;
    const started = process.env.PEERVOTE_STARTED_POSTGRES;
    if (started) {
      delete process.env.PEERVOTE_STARTED_POSTGRES;
      execFileSync('bash', ['tests/support/postgres.sh', 'stop', started], { cwd: ROOT, stdio: 'inherit' });
    }
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    surveysDir: string;
    databaseUrl: string;
    /** The migrated database the tests' servers start on copies of: a PostgreSQL database's name, or an SQLite file. */
    migratedDatabase: string;
  }
}
