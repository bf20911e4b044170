import path from 'node:path';
import { coerce, create, define, type Infer, type Struct, StructError, type, unknown } from 'superstruct';
import { DEFAULT_POOL_SIZE, DEFAULT_RETRY_WAITS_MS, type MailSettings } from '../mail/transport.ts';
import { quoted } from '../survey/errors.ts';

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
  /** Public host names a TLS-terminating proxy forwards (ALLOWED_DOMAINS, read at build time by Astro). */
  readonly allowedDomains: readonly string[];
  /** How many proxies in front of the API append to X-Forwarded-For; 0 trusts none. */
  readonly trustProxy: number;
  /** Ballot posts one client may make per window; 0 turns the limit off. */
  readonly rateLimitMax: number;
  readonly rateLimitWindowMs: number;
  /** Verification codes one client may ask for in 10 minutes (VERIFY_RATE_LIMIT_MAX); 0 when RATE_LIMIT_MAX=0 turns limits off. */
  readonly verifyRateLimitMax: number;
  /** Search requests one client may make per window; 0 turns the limit off. */
  readonly searchRateLimitMax: number;
  /** Personal-link checks one client may make per window (against guessing secrets); 0 turns the limit off. */
  readonly linkRateLimitMax: number;
  /** Receipt checks one client may make per window; 0 turns the limit off. */
  readonly receiptRateLimitMax: number;
  /** Console sign-in attempts and enrolment links asked for, per client per window, and per operator's address; 0 turns the limit off. */
  readonly consoleRateLimitMax: number;
  /** The site's public origin (PEERVOTE_BASE_URL): the links in messages, and the console's passkeys, which belong to its host. */
  readonly baseUrl?: string;
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
  /** Where mail goes: SMTP_URL with MAIL_FROM and MAIL_POOL_SIZE, else `.eml` files under DATA_DIR/mail (the CLI reads the same). */
  readonly mail: MailSettings;
}

/** The most waits MAIL_RETRY_WAITS takes (so the most tries of a message, one more), and the longest wait, in seconds. */
const MAX_RETRY_WAITS = 10;
const MAX_RETRY_WAIT_S = 3600;

/** A setting that the environment gives wrongly: names the variable and what was expected. */
export class EnvError extends Error {
  constructor(name: string, expected: string, value: string) {
    super(`Environment variable ${name}: expected ${expected}, got ${quoted(value)}`);
    this.name = 'EnvError';
  }
}

type Env = Record<string, string | undefined>;

/** What a variable's reader gives back for a value it cannot read: shown in the error instead of the raw value. */
class Unreadable {
  readonly shown: string;
  constructor(shown: string) {
    this.shown = shown;
  }
}

/**
 * One environment variable: `read` turns its trimmed text into the setting, or into an
 * Unreadable; blank or unset gives `fallback`. `expected` says what a right value looks like.
 */
function variable<T>(expected: string, read: (raw: string) => T | Unreadable, fallback: T): Struct<T, null> {
  return coerce(
    define<T>(expected, (value) => !(value instanceof Unreadable) || expected),
    unknown(),
    (raw) => (typeof raw === 'string' && raw.trim() !== '' ? read(raw.trim()) : fallback),
  );
}

const wholeNumber = (fallback: number, min = 0) =>
  variable(
    `a whole number${min ? ` of at least ${min}` : ''}`,
    (raw) => (/^\d+$/.test(raw) && Number(raw) >= min ? Number(raw) : new Unreadable(raw)),
    fallback,
  );

const text = (fallback: string) => variable('a text', (raw) => raw, fallback);
const optionalText = () => variable('a text', (raw): string | undefined => raw, undefined);

const flag = () =>
  variable(
    'true or false',
    (raw) => {
      const word = raw.toLowerCase();
      if (['0', 'false', 'no', 'off'].includes(word)) return false;
      if (['1', 'true', 'yes', 'on'].includes(word)) return true;
      return new Unreadable(word);
    },
    false,
  );

/**
 * Every variable the API and the build read, in one struct over the environment: each is
 * parsed here only, and `create` fails on the first one that is wrong.
 */
const Environment = type({
  DATABASE_URL: variable(
    'a postgres:// URL',
    (raw): string | undefined | Unreadable => (/^postgres(ql)?:\/\//.test(raw) ? raw : new Unreadable(raw)),
    undefined,
  ),
  DATA_DIR: text('data'),
  SQLITE_FILE: text('peervote.sqlite'),
  SQLITE_SYNCHRONOUS: variable(
    'NORMAL or FULL',
    (raw) => {
      const mode = raw.toUpperCase();
      return mode === 'NORMAL' || mode === 'FULL' ? mode : new Unreadable(mode);
    },
    'NORMAL' as const,
  ),
  PG_POOL_MAX: wholeNumber(10, 1),
  UPLOADS_DIR: text('uploads'),
  BODY_SIZE_LIMIT: wholeNumber(12 * 1024 * 1024, 1024),
  ALLOWED_ORIGINS: variable(
    'a comma-separated list of origins such as https://vote.example.com',
    (raw) => {
      const items = raw
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
      const wrong = items.find((item) => !URL.canParse(item) || new URL(item).origin !== item.replace(/\/$/, ''));
      return wrong === undefined ? items.map((item) => new URL(item).origin) : new Unreadable(wrong);
    },
    [] as string[],
  ),
  ALLOWED_DOMAINS: variable(
    'a comma-separated list of host names',
    (raw) =>
      raw
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    [] as string[],
  ),
  TRUST_PROXY: variable(
    'true, false or the number of proxies in front of the API',
    (raw) => {
      const word = raw.toLowerCase();
      if (['0', 'false', 'no', 'off'].includes(word)) return 0;
      if (['true', 'yes', 'on'].includes(word)) return 1;
      return /^\d+$/.test(word) ? Number(word) : new Unreadable(word);
    },
    0,
  ),
  RATE_LIMIT_MAX: wholeNumber(30),
  RATE_LIMIT_WINDOW_SECONDS: wholeNumber(60, 1),
  SEARCH_RATE_LIMIT_MAX: wholeNumber(600),
  LINK_RATE_LIMIT_MAX: wholeNumber(60),
  RECEIPT_RATE_LIMIT_MAX: wholeNumber(10),
  VERIFY_RATE_LIMIT_MAX: wholeNumber(10),
  CONSOLE_RATE_LIMIT_MAX: wholeNumber(10),
  PEERVOTE_BASE_URL: variable(
    "the site's public address, such as https://vote.example.com",
    (raw): string | undefined | Unreadable => (URL.canParse(raw) && /^https?:$/.test(new URL(raw).protocol) ? new URL(raw).origin : new Unreadable(raw)),
    undefined,
  ),
  IDEMPOTENCY_LOCK_SECONDS: wholeNumber(60, 1),
  PEERVOTE_TEST_HOOKS: flag(),
  SENTRY_DSN: variable(
    "a Sentry DSN such as https://<key>@o0.ingest.sentry.io/<project> (from the project's Client Keys)",
    (raw): string | undefined | Unreadable =>
      URL.canParse(raw) && /^https?:$/.test(new URL(raw).protocol) && new URL(raw).username ? raw : new Unreadable(raw),
    undefined,
  ),
  SENTRY_ENVIRONMENT: optionalText(),
  SENTRY_RELEASE: optionalText(),
  // The secret itself never goes into an error message: only its length.
  SIGNALS_SECRET: variable(
    'a random secret of at least 32 characters (openssl rand -hex 32)',
    (raw): string | undefined | Unreadable => (raw.length >= 32 ? raw : new Unreadable(`${raw.length} characters`)),
    undefined,
  ),
  // The password in the URL never goes into an error message: only the scheme that was wrong.
  SMTP_URL: variable(
    'an smtp:// or smtps:// URL such as smtp://user:pass@mail.example.com:587',
    (raw): string | undefined | Unreadable => (/^smtps?:\/\/[^\s]+$/.test(raw) && URL.canParse(raw) ? raw : new Unreadable(`${raw.split(':')[0]}:…`)),
    undefined,
  ),
  MAIL_FROM: variable(
    'a mail address such as "Metro Health <votes@example.com>"',
    (raw): string | undefined | Unreadable => (/@[^@\s>]+\.[^@\s>]+>?$/.test(raw) ? raw : new Unreadable(raw)),
    undefined,
  ),
  MAIL_POOL_SIZE: wholeNumber(DEFAULT_POOL_SIZE, 1),
  // Greylisting servers ask for a wait of minutes; a list as long as this and waits of an hour at most keep a run finite.
  MAIL_RETRY_WAITS: variable(
    `seconds to wait before each new try of a message refused for now, comma-separated, such as ${DEFAULT_RETRY_WAITS_MS.map((ms) => ms / 1000).join(',')} (at most ${MAX_RETRY_WAITS} waits of at most ${MAX_RETRY_WAIT_S} s)`,
    (raw): number[] | Unreadable => {
      const waits = raw.split(',').map((part) => part.trim());
      const readable = waits.length <= MAX_RETRY_WAITS && waits.every((wait) => /^\d{1,4}(\.\d{1,3})?$/.test(wait) && Number(wait) <= MAX_RETRY_WAIT_S);
      return readable ? waits.map((wait) => Math.round(Number(wait) * 1000)) : new Unreadable(raw);
    },
    [...DEFAULT_RETRY_WAITS_MS],
  ),
});

/** Reads every variable of an environment; throws an EnvError naming the first variable that is wrong. */
function readEnvironment(env: Env): Infer<typeof Environment> {
  try {
    return create(env, Environment);
  } catch (error) {
    if (!(error instanceof StructError)) throw error;
    const [failure] = error.failures();
    const shown = failure.value instanceof Unreadable ? failure.value.shown : String(env[String(failure.key)]);
    throw new EnvError(String(failure.key), failure.message, shown);
  }
}

/** Reads the settings from an environment; throws an EnvError naming the first variable that is wrong. */
export function readServerConfig(env: Env = process.env): ServerConfig {
  const vars = readEnvironment(env);
  const dataDir = path.resolve(vars.DATA_DIR);
  // A real server needs a real sender: the stated default is for the files only.
  if (vars.SMTP_URL && !vars.MAIL_FROM) throw new EnvError('MAIL_FROM', 'a sender address whenever SMTP_URL is set', '');
  return Object.freeze({
    databaseUrl: vars.DATABASE_URL,
    sqliteFile: path.resolve(dataDir, vars.SQLITE_FILE),
    sqliteSynchronous: vars.SQLITE_SYNCHRONOUS,
    pgPoolMax: vars.PG_POOL_MAX,
    uploadsDir: path.resolve(dataDir, vars.UPLOADS_DIR),
    bodySizeLimit: vars.BODY_SIZE_LIMIT,
    allowedOrigins: Object.freeze(vars.ALLOWED_ORIGINS),
    allowedDomains: Object.freeze(vars.ALLOWED_DOMAINS),
    trustProxy: vars.TRUST_PROXY,
    rateLimitMax: vars.RATE_LIMIT_MAX,
    rateLimitWindowMs: vars.RATE_LIMIT_WINDOW_SECONDS * 1000,
    searchRateLimitMax: vars.SEARCH_RATE_LIMIT_MAX,
    linkRateLimitMax: vars.LINK_RATE_LIMIT_MAX,
    receiptRateLimitMax: vars.RECEIPT_RATE_LIMIT_MAX,
    consoleRateLimitMax: vars.CONSOLE_RATE_LIMIT_MAX,
    baseUrl: vars.PEERVOTE_BASE_URL,
    verifyRateLimitMax: vars.RATE_LIMIT_MAX === 0 ? 0 : vars.VERIFY_RATE_LIMIT_MAX,
    idempotencyLockMs: vars.IDEMPOTENCY_LOCK_SECONDS * 1000,
    testHooks: vars.PEERVOTE_TEST_HOOKS,
    sentry: vars.SENTRY_DSN ? Object.freeze({ dsn: vars.SENTRY_DSN, environment: vars.SENTRY_ENVIRONMENT, release: vars.SENTRY_RELEASE }) : undefined,
    signalsSecret: vars.SIGNALS_SECRET,
    signalsKeyFile: path.resolve(dataDir, 'signals.key'),
    mail: Object.freeze({
      smtpUrl: vars.SMTP_URL,
      from: vars.MAIL_FROM,
      mailDir: path.resolve(dataDir, 'mail'),
      poolSize: vars.MAIL_POOL_SIZE,
      retryWaitsMs: Object.freeze(vars.MAIL_RETRY_WAITS),
    }),
  });
}

let current: ServerConfig | undefined;

/** The settings of this process, read on first use and frozen. */
export function serverConfig(): ServerConfig {
  current ??= readServerConfig();
  return current;
}
