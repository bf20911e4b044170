import { createHmac, timingSafeEqual } from 'node:crypto';
import { serverConfig } from '../config.ts';
import { signalsSecret } from '../intake/signals-salt.ts';

/** How long a proof of an address stays good: a day is ample to fill a ballot, short enough to mean "just now". */
const PROOF_LIFETIME_MS = 24 * 60 * 60_000;

/** The cookie a ballot posted without JavaScript carries its proof in (the scripts send it as a form field). */
export const PROOF_COOKIE = 'peervote_verified';

/** The form field the page's scripts send the proof in. */
export const PROOF_FIELD = 'verification';

/** What a proof says: the survey, the address proven, and for `verify: roster` the invited person's secret. */
export interface Proof {
  projectId: string;
  email: string;
  secret: string | null;
}

/** The key proofs are signed with, derived from the server's own secret (SIGNALS_SECRET or its key file). */
function proofKey(): Buffer {
  return createHmac('sha256', signalsSecret(serverConfig())).update('peervote verified voter proof').digest();
}

function mac(payload: string): string {
  return createHmac('sha256', proofKey()).update(payload).digest('base64url');
}

/** A signed proof that a voter typed the right code for an address, good for a day. */
export function signProof(proof: Proof, now: Date): string {
  const payload = Buffer.from(JSON.stringify({ p: proof.projectId, e: proof.email, s: proof.secret, x: now.getTime() + PROOF_LIFETIME_MS })).toString(
    'base64url',
  );
  return `${payload}.${mac(payload)}`;
}

/** The proof a token carries for this survey, or undefined when it is missing, forged, for another survey or out of date. */
export function readProof(token: string | undefined, projectId: string, now: Date): Proof | undefined {
  if (!token || token.length > 2000) return undefined;
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return undefined;
  const expected = Buffer.from(mac(payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  try {
    const data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { p?: unknown; e?: unknown; s?: unknown; x?: unknown };
    if (data.p !== projectId || typeof data.e !== 'string' || typeof data.x !== 'number' || data.x <= now.getTime()) return undefined;
    return { projectId, email: data.e, secret: typeof data.s === 'string' ? data.s : null };
  } catch {
    return undefined;
  }
}

/** The proof cookie's value in a request's Cookie header, if any. */
export function proofCookie(request: Request): string | undefined {
  const header = request.headers.get('cookie') ?? '';
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === PROOF_COOKIE) return value.join('=');
  }
  return undefined;
}
