import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ServerConfig } from '../config.ts';
import { clientAddress } from '../client-address.ts';
import { countRequest } from '../rate-limits.repository.ts';
import type { BallotTarget } from './ballot-request.ts';
import { tryLater, type TryLater } from './intake-outcome.ts';

/** The most public ballots one person (one browser at one address) can fill in a minute: more is a burst. */
const HUMAN_PER_MINUTE = 2;

/** The burst's window. */
const MINUTE_MS = 60_000;

/**
 * Friction where it is due: a third public ballot within a minute from one browser at one
 * address (no person fills ballots that fast) is asked to wait the rest of the minute, with the
 * wait stated, rather than stored; nothing changes for anyone else. A survey that verifies voters
 * already asks every public ballot for a proof, one per address. Off with RATE_LIMIT_MAX=0.
 */
export async function burstFriction(
  db: Kysely<Database>,
  config: ServerConfig,
  target: BallotTarget,
  request: Request,
  connection: string | undefined,
  now: Date,
): Promise<TryLater | undefined> {
  if (config.rateLimitMax === 0 || target.link !== 'public' || target.survey.config.verify !== 'none') return undefined;
  const person = `burst:${target.survey.config.project_id}:${clientAddress(request, connection, config)}:${request.headers.get('user-agent') ?? ''}`;
  const { hits, resetAt } = await countRequest(db, createHash('sha256').update(person).digest('hex'), now, MINUTE_MS);
  if (hits <= HUMAN_PER_MINUTE) return undefined;
  const wait = Math.max(1, Math.ceil((resetAt - now.getTime()) / 1000));
  return tryLater(
    'burst',
    `Several ballots have just come from this browser. Please wait ${wait} seconds, then send your ballot again: your answers are kept.`,
    wait,
  );
}
