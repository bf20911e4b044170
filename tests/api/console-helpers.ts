import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, inject } from 'vitest';
import { startApi, type Api } from './helpers.ts';
import { runResults } from '../support/results-cli.ts';
import { SoftAuthenticator } from '../support/passkey-authenticator.ts';

// The console's API tests: a server of their own on a copy of the test surveys (whose
// operators.yaml each test file writes), and browsers that keep a session cookie and answer
// passkey ceremonies with a software authenticator.

/** How long a test waits for the server to see a file changed (it looks once a second) or a mail sent after the answer. */
export const FOLLOWED = { timeout: 5000, interval: 100 };

/** An answer: status, headers, the JSON body (or the text). */
export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** A console server with its own surveys folder, and the means to change its operators file and make links. */
export interface ConsoleServer {
  api: Api;
  /** The console's origin: the server at `localhost`, where its passkeys belong. */
  origin: string;
  surveysDir: string;
  /** Rewrites operators.yaml. */
  writeOperators(text: string): void;
  /** `npm run results -- operators link EMAIL …args`: the link it prints. */
  link(email: string, ...args: string[]): Promise<string>;
  stop(): Promise<void>;
}

/** An operators file of one operator a line: `address: role on top-doctors-demo` pairs, or roles as written. */
export function operatorsYaml(operators: Record<string, Record<string, string>>): string {
  const lines = ['operators:'];
  for (const [email, roles] of Object.entries(operators)) {
    lines.push(`  - email: ${email}`, `    name: ${email.split('@')[0]}`, '    roles:');
    for (const [slug, role] of Object.entries(roles)) lines.push(`      "${slug}": ${role}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Starts a server for the console tests, its surveys a copy of the test surveys with this
 * operators file; `prepare` may change the copy before the server reads it.
 */
export async function startConsole(operators: string, env: Record<string, string> = {}, prepare?: (surveysDir: string) => void): Promise<ConsoleServer> {
  const surveysDir = mkdtempSync(path.join(tmpdir(), 'peervote-console-surveys-'));
  cpSync(inject('surveysDir'), surveysDir, { recursive: true });
  writeFileSync(path.join(surveysDir, 'operators.yaml'), operators);
  prepare?.(surveysDir);
  const api = await startApi({ SURVEYS_DIR: surveysDir, CONSOLE_RATE_LIMIT_MAX: '0', ...env });
  const origin = api.url.replace('127.0.0.1', 'localhost');
  return {
    api,
    origin,
    surveysDir,
    writeOperators: (text) => writeFileSync(path.join(surveysDir, 'operators.yaml'), text),
    async link(email, ...args) {
      const run = await runResults(['operators', 'link', email, '--base-url', origin, ...args], {
        SURVEYS_DIR: surveysDir,
        DATA_DIR: api.dataDir,
        DATABASE_URL: api.databaseUrl,
      });
      expect(run.stderr, run.stderr).toMatch(/^Enrolment link for /);
      expect(run.code).toBe(0);
      return run.stdout.trim();
    },
    async stop() {
      await api.stop();
      rmSync(surveysDir, { recursive: true, force: true });
    },
  };
}

/** How one request of a browser goes: the time the server takes it at, and whether it carries the origin and the CSRF token a page's script sends. */
interface Sent {
  now?: Date;
  origin?: string | null;
  csrf?: boolean;
  headers?: Record<string, string>;
}

/** A browser at the console: one cookie jar (the session cookie), the session's CSRF token, and a software authenticator. */
export class ConsoleBrowser {
  cookie = '';
  csrf = '';
  readonly authenticator: SoftAuthenticator;
  readonly server: ConsoleServer;

  constructor(server: ConsoleServer, authenticator = new SoftAuthenticator({ origin: server.origin })) {
    this.server = server;
    this.authenticator = authenticator;
  }

  /** One request, redirects not followed; a Set-Cookie replaces the jar's cookie (or empties it). */
  async request(pathname: string, init: RequestInit = {}, sent: Sent = {}): Promise<Answer> {
    const headers = new Headers(init.headers);
    if (this.cookie) headers.set('Cookie', this.cookie);
    if (sent.now) headers.set('X-Peervote-Now', sent.now.toISOString());
    for (const [name, value] of Object.entries(sent.headers ?? {})) headers.set(name, value);
    const response = await fetch(`${this.server.origin}${pathname}`, { ...init, headers, redirect: 'manual' });
    const cookie = response.headers.get('set-cookie');
    if (cookie) this.cookie = /Max-Age=0/.test(cookie) ? '' : cookie.split(';')[0];
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // a page: keep the text
    }
    return { status: response.status, headers: response.headers, body };
  }

  /** A page, as a browser's navigation asks for it. */
  page(pathname: string, sent: Sent = {}): Promise<Answer> {
    return this.request(pathname, { headers: { Accept: 'text/html', 'Sec-Fetch-Mode': 'navigate' } }, sent);
  }

  /** A JSON post as the console's script makes it: the console's origin, and the CSRF token unless told otherwise. */
  post(pathname: string, body: Record<string, unknown> = {}, sent: Sent = {}): Promise<Answer> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
    const origin = sent.origin === undefined ? this.server.origin : sent.origin;
    if (origin) headers.Origin = origin;
    if (sent.csrf !== false && this.csrf) headers['X-Console-CSRF'] = this.csrf;
    return this.request(pathname, { method: 'POST', headers, body: JSON.stringify(body) }, sent);
  }

  /** A form posted without script, as the pages' forms are: form-encoded, `csrf` among its fields. */
  postForm(pathname: string, fields: Record<string, string>, sent: Sent = {}): Promise<Answer> {
    const headers: Record<string, string> = {
      'Content-Type': 'application/x-www-form-urlencoded',
      Accept: 'text/html',
      'Sec-Fetch-Mode': 'navigate',
      'Sec-Fetch-Site': 'same-origin',
      Origin: sent.origin === undefined ? this.server.origin : (sent.origin ?? ''),
    };
    return this.request(pathname, { method: 'POST', headers, body: new URLSearchParams(fields).toString() }, sent);
  }

  /** Reads the session's CSRF token from a console page, as the page's script does. */
  async readCsrf(sent: Sent = {}): Promise<string> {
    const page = await this.page('/console/', sent);
    expect(page.status, String(page.body).slice(0, 300)).toBe(200);
    this.csrf = /data-csrf="([^"]+)"/.exec(page.body)?.[1] ?? '';
    expect(this.csrf).not.toBe('');
    return this.csrf;
  }

  /** Opens an enrolment link and makes its passkey, as "Create a passkey" does; the enrolment's answer. */
  async enrol(link: string, sent: Sent = {}): Promise<Answer> {
    const token = link.split('/').pop() ?? '';
    const options = await this.post('/api/console/enrol/options', { token }, sent);
    if (options.status !== 200) return options;
    const response = this.authenticator.register(options.body.options);
    return this.post('/api/console/enrol', { token, ceremony: options.body.ceremony, response }, sent);
  }

  /** Signs in with a passkey, as "Sign in with a passkey" does; the sign-in's answer. */
  async signIn(sent: Sent = {}): Promise<Answer> {
    const options = await this.post('/api/console/sign-in/options', {}, sent);
    if (options.status !== 200) return options;
    const response = this.authenticator.authenticate(options.body.options);
    return this.post('/api/console/sign-in', { ceremony: options.body.ceremony, response }, sent);
  }

  /** Checks the passkey again in this session (for a sensitive act). */
  async reauthenticate(sent: Sent = {}): Promise<Answer> {
    const options = await this.post('/api/console/reauthenticate/options', {}, sent);
    if (options.status !== 200) return options;
    const response = this.authenticator.authenticate(options.body.options);
    return this.post('/api/console/reauthenticate', { ceremony: options.body.ceremony, response }, sent);
  }

  /** Enrols with a link from the command line and reads the session's CSRF token: a signed-in operator. */
  async enrolled(email: string, sent: Sent = {}): Promise<this> {
    const answer = await this.enrol(await this.server.link(email), sent);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    await this.readCsrf(sent);
    return this;
  }
}
