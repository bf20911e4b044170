import type { ServerConfig } from '../config.ts';

/** The console's own address for a request: its origin, the host its passkeys belong to, and its session cookie. */
export interface ConsoleAddress {
  /** The origin pages are served from and that every passkey's answer must name. */
  readonly origin: string;
  /** The WebAuthn relying party id: the host of PEERVOTE_BASE_URL, else `localhost`. */
  readonly rpId: string;
  /** Over HTTPS: the cookie is then `__Host-`-prefixed and Secure. */
  readonly secure: boolean;
  readonly cookieName: string;
}

/** Where a request should have gone instead: the same path at the console's own origin. */
interface Elsewhere {
  readonly redirect: string;
}

/** Why no console answers at this address. */
interface Nowhere {
  readonly why: string;
}

/** The loopback names that reach `npm start` on this machine: their console lives at `localhost`, the only one of them a passkey may belong to. */
const LOOPBACK = new Set(['127.0.0.1', '[::1]']);

/**
 * Where the console is for a request at `url`: at PEERVOTE_BASE_URL when it is set (its host
 * is the passkeys' relying party); else at `http(s)://localhost:PORT`, as `npm start` prints it,
 * since a passkey cannot belong to an IP address. A request at the loopback address is sent to
 * `localhost`; at any other address, the console says where it lives, and answers nothing else.
 */
export function consoleAddress(url: URL, config: Pick<ServerConfig, 'baseUrl'>): ConsoleAddress | Elsewhere | Nowhere {
  const at = (origin: string, rpId: string): ConsoleAddress => {
    const secure = origin.startsWith('https:');
    return { origin, rpId, secure, cookieName: secure ? '__Host-pv_console' : 'pv_console' };
  };
  if (config.baseUrl) {
    if (url.origin === config.baseUrl) return at(config.baseUrl, new URL(config.baseUrl).hostname);
    // Not a redirect: behind a TLS proxy the server may not see the public address, and would send the browser round in a loop.
    return {
      why: `The console answers at ${config.baseUrl}/console/ (PEERVOTE_BASE_URL), and this request came to ${url.origin}. Behind a TLS proxy, build with ALLOWED_DOMAINS=${new URL(config.baseUrl).hostname} so that the server sees the public address.`,
    };
  }
  if (url.hostname === 'localhost') return at(url.origin, 'localhost');
  if (LOOPBACK.has(url.hostname)) return { redirect: `${url.protocol}//localhost${url.port ? `:${url.port}` : ''}${url.pathname}${url.search}` };
  return {
    why: `The console works at one address, which its passkeys belong to: set PEERVOTE_BASE_URL to the site's public address (now ${url.origin}), or open http://localhost:PORT/console/ on the server itself.`,
  };
}

/** True when the address is the console's own (not a redirect elsewhere, nor nowhere). */
export function isConsoleAddress(found: ReturnType<typeof consoleAddress>): found is ConsoleAddress {
  return 'origin' in found;
}
