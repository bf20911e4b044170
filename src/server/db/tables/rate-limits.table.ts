import type { Selectable } from 'kysely';

/** `rate_limits`: ballot posts per client in the current fixed window, shared by every API instance. */
export interface RateLimitsTable {
  /** SHA-256 of the client's address: the limit needs to tell clients apart, not to know them. */
  client: string;
  /** The window's number: milliseconds since the epoch divided by the window's length. */
  window_number: number;
  hits: number;
}

/** A client's count. */
export type RateLimitRow = Selectable<RateLimitsTable>;
