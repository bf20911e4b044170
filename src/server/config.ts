import path from 'node:path';

/** The survey API's settings, read from the environment once (see docs/api.md for each variable). */
export interface ServerConfig {
  /** PostgreSQL when set (`postgres://…`); otherwise the embedded SQLite file. */
  readonly databaseUrl?: string;
  readonly sqliteFile: string;
  /** `NORMAL` (default: a commit survives a crash of the process) or `FULL` (it also survives a power cut). */
  readonly sqliteSynchronous: 'NORMAL' | 'FULL';
  readonly pgPoolMax: number;
  readonly uploadsDir: string;
  /** The largest request body the API reads, in bytes. */
  readonly bodySizeLimit: number;
  /** Origins besides the API's own that may post ballots and read answers (a site on a CDN). */
  readonly allowedOrigins: readonly string[];
  /** How many proxies in front of the API append to X-Forwarded-For; 0 trusts none. */
  readonly trustProxy: number;
  /** Ballot posts one client may make per window; 0 turns the limit off. */
  readonly rateLimitMax: number;
  readonly rateLimitWindowMs: number;
  /** Search requests one client may make per window; 0 turns the limit off. */
  readonly searchRateLimitMax: number;
  /** Personal-link checks one client may make per window (against guessing secrets); 0 turns the limit off. */
  readonly linkRateLimitMax: number;
  /** Receipt checks one client may make per window; 0 turns the limit off. */
  readonly receiptRateLimitMax: number;
  /** How long an idempotency key stays "in flight" before a crashed request's claim may be taken over. */
  readonly idempotencyLockMs: number;
  /** Test hooks (the X-Peervote-Now clock, fault injection): never set in production. */
  readonly testHooks: boolean;
  /** Where the API reports its errors: Sentry's DSN, environment and release; none without a DSN. */
  readonly sentry?: { readonly dsn: string; readonly environment?: string; readonly release?: string };
  /** The secret the fraud signals' per-survey salts derive from (SIGNALS_SECRET); else the key file below. */
  readonly signalsSecret?: string;
  /** Where the signals' secret is kept when SIGNALS_SECRET is unset: created on first use, readable by the owner only. */
  readonly signalsKeyFile: string;
}

/** A setting that the environment gives wrongly: names the variable and what was expected. */
export class EnvError extends Error {
  constructor(name: string, expected: string, value: string) {
    super(`Environment variable ${name}: expected ${expected}, got ${JSON.stringify(value)}`);
    this.name = 'EnvError';
  }
}

type Env = Record<string, string | undefined>;

function wholeNumber(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new EnvError(name, `a whole number${min ? ` of at least ${min}` : ''}`, raw);
  return Number(raw);
}

function flag(env: Env, name: string): boolean {
  const raw = env[name]?.trim().toLowerCase() ?? '';
  if (['', '0', 'false', 'no', 'off'].includes(raw)) return false;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  throw new EnvError(name, 'true or false', raw);
}

function proxies(env: Env, name: string): number {
  const raw = env[name]?.trim().toLowerCase() ?? '';
  if (['', '0', 'false', 'no', 'off'].includes(raw)) return 0;
  if (['true', 'yes', 'on'].includes(raw)) return 1;
  if (/^\d+$/.test(raw)) return Number(raw);
  throw new EnvError(name, 'true, false or the number of proxies in front of the API', raw);
}

function sentry(env: Env): ServerConfig['sentry'] {
  const dsn = env.SENTRY_DSN?.trim();
  if (!dsn) return undefined;
  if (!URL.canParse(dsn) || !/^https?:$/.test(new URL(dsn).protocol) || !new URL(dsn).username) {
    throw new EnvError('SENTRY_DSN', "a Sentry DSN such as https://<key>@o0.ingest.sentry.io/<project> (from the project's Client Keys)", dsn);
  }
  return Object.freeze({ dsn, environment: env.SENTRY_ENVIRONMENT?.trim() || undefined, release: env.SENTRY_RELEASE?.trim() || undefined });
}

function secret(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (raw.length < 32) throw new EnvError(name, 'a random secret of at least 32 characters (openssl rand -hex 32)', `${raw.length} characters`);
  return raw;
}

function origins(env: Env, name: string): string[] {
  const raw = env[name] ?? '';
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      if (!URL.canParse(item) || new URL(item).origin !== item.replace(/\/$/, '')) {
        throw new EnvError(name, 'a comma-separated list of origins such as https://vote.example.com', item);
      }
      return new URL(item).origin;
    });
}

/** Reads the settings from an environment; throws an EnvError naming the first variable that is wrong. */
export function readServerConfig(env: Env = process.env): ServerConfig {
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) throw new EnvError('DATABASE_URL', 'a postgres:// URL', databaseUrl);
  const dataDir = path.resolve(env.DATA_DIR?.trim() || 'data');
  const synchronous = (env.SQLITE_SYNCHRONOUS?.trim() || 'NORMAL').toUpperCase();
  if (synchronous !== 'NORMAL' && synchronous !== 'FULL') throw new EnvError('SQLITE_SYNCHRONOUS', 'NORMAL or FULL', synchronous);
  return Object.freeze({
    databaseUrl,
    sqliteFile: path.resolve(dataDir, env.SQLITE_FILE?.trim() || 'peervote.sqlite'),
    sqliteSynchronous: synchronous,
    pgPoolMax: wholeNumber(env, 'PG_POOL_MAX', 10, 1),
    uploadsDir: path.resolve(dataDir, env.UPLOADS_DIR?.trim() || 'uploads'),
    bodySizeLimit: wholeNumber(env, 'BODY_SIZE_LIMIT', 12 * 1024 * 1024, 1024),
    allowedOrigins: Object.freeze(origins(env, 'ALLOWED_ORIGINS')),
    trustProxy: proxies(env, 'TRUST_PROXY'),
    rateLimitMax: wholeNumber(env, 'RATE_LIMIT_MAX', 30),
    rateLimitWindowMs: wholeNumber(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1) * 1000,
    searchRateLimitMax: wholeNumber(env, 'SEARCH_RATE_LIMIT_MAX', 600),
    linkRateLimitMax: wholeNumber(env, 'LINK_RATE_LIMIT_MAX', 60),
    receiptRateLimitMax: wholeNumber(env, 'RECEIPT_RATE_LIMIT_MAX', 10),
    idempotencyLockMs: wholeNumber(env, 'IDEMPOTENCY_LOCK_SECONDS', 60, 1) * 1000,
    testHooks: flag(env, 'PEERVOTE_TEST_HOOKS'),
    sentry: sentry(env),
    signalsSecret: secret(env, 'SIGNALS_SECRET'),
    signalsKeyFile: path.resolve(dataDir, 'signals.key'),
  });
}

let current: ServerConfig | undefined;

/** The settings of this process, read on first use and frozen. */
export function serverConfig(): ServerConfig {
  current ??= readServerConfig();
  return current;
}
