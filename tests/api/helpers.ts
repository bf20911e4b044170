import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPostgresDatabase, dropPostgresDatabase } from '../support/postgres-databases.ts';
import { Migrator, type Kysely } from 'kysely';
import { inject } from 'vitest';
import { startServer } from '../support/server.mjs';
import { demoBallotFields } from '../support/ballots.mjs';
import { createDatabase } from '../../src/server/db/database.ts';
import { migrations } from '../../src/server/db/migrations/index.ts';
import type { Database } from '../../src/server/db/schema.ts';

/** A file part of a ballot. */
export interface FilePart {
  name: string;
  type: string;
  data: Uint8Array;
}

/** A ballot as pairs of name and value (a name may repeat). */
export type Fields = Array<[string, string | FilePart]>;

/** An API answer: status, headers and the parsed JSON body (or the text, when not JSON). */
interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** A running API server on its own database, with the means to post ballots and look inside. */
export interface Api {
  url: string;
  dialect: 'sqlite' | 'postgres';
  dataDir: string;
  /** The server process's id, to read its memory. */
  readonly pid: number;
  /** The PostgreSQL database of this server; empty on SQLite. */
  databaseUrl: string;
  post(fields: Fields, options?: { query?: Record<string, string>; headers?: Record<string, string> }): Promise<Answer>;
  request(pathname: string, init?: RequestInit): Promise<Answer>;
  get(pathname: string, headers?: Record<string, string>): Promise<Answer>;
  /** The database itself, to check what was stored. */
  db(): Kysely<Database>;
  /** What the running server has printed so far (stdout and stderr). */
  log(): string;
  restart(env?: Record<string, string>): Promise<void>;
  stopped(): Promise<number | null>;
  stop(): Promise<void>;
}

/** The demo survey's query for a public-link ballot. */
/**
 * The X-Peervote-Now header of one instant, a second into the current rate-limit minute: a
 * test that counts requests against a fixed window sends it on each, so that the window cannot
 * turn over between them however slowly the machine runs.
 */
export function oneInstant(windowMs = 60_000): Record<string, string> {
  return { 'X-Peervote-Now': new Date(Math.floor(Date.now() / windowMs) * windowMs + 1000).toISOString() };
}

export const DEMO_QUERY = { project_id: 'top-doctors-demo', project_type: 'form', sheet: 'Top Doctors 2027 ballots' };

/** A valid demo ballot, varied by `n`. */
export function demoBallot(n = 0): Fields {
  return demoBallotFields(n) as Fields;
}

/** A valid kitchen-sink ballot; `changes` replace or add fields, `undefined` removes one. */
export function sinkBallot(changes: Record<string, string | FilePart | undefined> = {}): Fields {
  const base: Record<string, string | FilePart | undefined> = {
    'full-name': 'Ada Lovelace',
    email: 'ada@example.org',
    hospital: 'St. Mary',
    role: 'Resident',
    interests: 'Research',
    'nominations[Medicine][Cardiology][1]': 'n-1',
    'nominations[Medicine][Cardiology][2]': 'n-2',
    affirm: 'on',
    ...changes,
  };
  return Object.entries(base).filter((entry): entry is [string, string | FilePart] => entry[1] !== undefined);
}

/** The kitchen-sink survey's query. */
export const SINK_QUERY = { project_id: 'kitchen-sink', project_type: 'form' };

/** The ballot as the browser's FormData. */
export function toForm(fields: Fields): FormData {
  const form = new FormData();
  for (const [name, value] of fields) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob([value.data as BlobPart], { type: value.type }), value.name);
  }
  return form;
}

async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body };
}

/**
 * A database of this run's dialect of its own (a new PostgreSQL database, or an SQLite file in a
 * temp folder), migrated up to the migration named `migration` and no further: for a test of the
 * migrations after it, on data written before them. `remove` closes and drops it.
 */
export async function databaseMigratedTo(migration: string): Promise<{ db: Kysely<Database>; remove(): Promise<void> }> {
  const adminUrl = inject('databaseUrl');
  const dir = mkdtempSync(path.join(tmpdir(), 'peervote-migration-'));
  const databaseUrl = adminUrl ? await createPostgresDatabase(adminUrl) : '';
  const { db } = databaseUrl
    ? createDatabase({ databaseUrl, sqliteFile: '', sqliteSynchronous: 'NORMAL', pgPoolMax: 2 })
    : createDatabase({ sqliteFile: path.join(dir, 'peervote.sqlite'), sqliteSynchronous: 'NORMAL', pgPoolMax: 1 });
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo(migration);
  if (error) throw error;
  return {
    db,
    async remove() {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
      if (databaseUrl) await dropPostgresDatabase(adminUrl, databaseUrl);
    },
  };
}

/** A new, empty database and data folder, and the environment a server is started with on them. */
export interface FreshDatabase {
  dataDir: string;
  /** The PostgreSQL database; empty on SQLite. */
  databaseUrl: string;
  env: Record<string, string>;
  /** Removes the folder and the PostgreSQL database. */
  remove(): Promise<void>;
}

/**
 * A fresh database of this project's dialect (SQLite in a temp folder, or a new PostgreSQL
 * database), with the environment of a server on it: the test surveys, test hooks on and no
 * rate limits unless `env` says otherwise. Empty; or, with `migrated`, a copy of one the global
 * setup migrated (migratedDatabase), as a server's first start leaves it: the server then finds
 * no migration to run, which saves each start a few tenths of a second of processor time.
 */
export async function freshDatabase(env: Record<string, string> = {}, { migrated = false } = {}): Promise<FreshDatabase> {
  const adminUrl = inject('databaseUrl');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'peervote-api-'));
  const template = migrated ? inject('migratedDatabase') : undefined;
  const databaseUrl = adminUrl ? await createPostgresDatabase(adminUrl, { template }) : '';
  if (!adminUrl && template) copyFileSync(template, path.join(dataDir, 'peervote.sqlite'));
  return {
    dataDir,
    databaseUrl,
    env: {
      SURVEYS_DIR: inject('surveysDir'),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      PEERVOTE_TEST_HOOKS: '1',
      RATE_LIMIT_MAX: '0',
      SEARCH_RATE_LIMIT_MAX: '0',
      LINK_RATE_LIMIT_MAX: '0',
      ALLOWED_ORIGINS: '',
      TRUST_PROXY: '',
      BODY_SIZE_LIMIT: '',
      ...env,
    },
    async remove() {
      rmSync(dataDir, { recursive: true, force: true });
      if (databaseUrl) await dropPostgresDatabase(adminUrl, databaseUrl);
    },
  };
}

/**
 * Starts the built server on a fresh database (freshDatabase), migrated already: what a server
 * does with a new database at its first start, the migrations' own tests and the tests that start
 * servers on freshDatabase's empty ones see.
 */
export async function startApi(env: Record<string, string> = {}): Promise<Api> {
  const fresh = await freshDatabase(env, { migrated: true });
  const { dataDir, databaseUrl, env: baseEnv } = fresh;
  let server = await startServer({ env: baseEnv });
  let inspector: Kysely<Database> | undefined;
  const settings = {
    databaseUrl: databaseUrl || undefined,
    sqliteFile: path.join(dataDir, 'peervote.sqlite'),
    sqliteSynchronous: 'NORMAL' as const,
    pgPoolMax: 2,
  };

  const api: Api = {
    get url() {
      return server.url;
    },
    dialect: databaseUrl ? 'postgres' : 'sqlite',
    dataDir,
    get pid() {
      return server.child.pid as number;
    },
    databaseUrl,
    async post(fields, { query = DEMO_QUERY, headers = {} } = {}) {
      const search = new URLSearchParams(query).toString();
      const response = await fetch(`${server.url}/api/survey?${search}`, { method: 'POST', body: toForm(fields), headers: { Origin: server.url, ...headers } });
      return answer(response);
    },
    async request(pathname, init = {}) {
      return answer(await fetch(`${server.url}${pathname}`, init));
    },
    async get(pathname, headers = {}) {
      return answer(await fetch(`${server.url}${pathname}`, { headers }));
    },
    db() {
      inspector ??= createDatabase(settings).db;
      return inspector;
    },
    log: () => server.output(),
    async restart(extra = {}) {
      await inspector?.destroy();
      inspector = undefined;
      await server.stop();
      server = await startServer({ env: { ...baseEnv, ...extra } });
    },
    stopped: () => server.exited as Promise<number | null>,
    async stop() {
      await inspector?.destroy();
      inspector = undefined;
      await server.stop();
      await fresh.remove();
    },
  };
  return api;
}

/** How many rows each ballot table holds. */
export async function rowCounts(db: Kysely<Database>): Promise<Record<string, number>> {
  const tables = ['ballots', 'answers', 'nominations', 'write_ins', 'reservations', 'tile_claims', 'uploads', 'idempotency_keys'] as const;
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

/** The first bytes of a real PDF, enough for a file the server accepts. */
export const PDF: FilePart = {
  name: 'cv.pdf',
  type: 'application/pdf',
  data: new TextEncoder().encode('%PDF-1.4\n% test\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'),
};
