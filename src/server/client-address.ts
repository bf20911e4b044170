import type { ServerConfig } from './config.ts';

/** The header bin/serve.mjs sets to the connection's own address, after removing any a client sent. */
const PEER_HEADER = 'x-peervote-peer';

/**
 * The address a request comes from, for the rate limit. With TRUST_PROXY=n the n-th address
 * from the right of X-Forwarded-For (the one our own proxy added; entries further left are
 * the client's to invent); otherwise the connection's address.
 */
export function clientAddress(request: Request, fallback: string | undefined, config: Pick<ServerConfig, 'trustProxy'>): string {
  const peer = process.env.PEERVOTE_PEER_HEADER === '1' ? request.headers.get(PEER_HEADER) : null;
  const connection = peer ?? fallback ?? 'unknown';
  if (config.trustProxy === 0) return connection;
  const forwarded = (request.headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return forwarded[forwarded.length - config.trustProxy] ?? forwarded[0] ?? connection;
}
