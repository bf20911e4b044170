import { randomBytes } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransportFuture,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { CeremonyPurpose } from '../db/tables/console-challenges.table.ts';
import type { ConsoleCredentialRow, NewConsoleCredential } from '../db/tables/console-credentials.table.ts';
import type { Operator } from '../../survey/operators/operators.struct.ts';
import type { ConsoleAddress } from './console-address.ts';
import { credentialById, credentialsOf, credentialUsed, insertChallenge, takeChallenge } from './passkeys.repository.ts';

// The passkey ceremonies, as SimpleWebAuthn's example server does them: options with a fresh
// challenge (stored here, bound to what the ceremony is for), the browser's startRegistration
// or startAuthentication, then the answer verified against that challenge, used once. User
// verification is required every time (a PIN or a biometric on the authenticator), and a
// discoverable passkey is preferred, so that signing in needs no address typed.

/** A ceremony's challenge dies this long after its options. */
const CEREMONY_LIFETIME_MS = 5 * 60 * 1000;
const RP_NAME = 'Peervote console';
/** What a ceremony's id and a credential's id are written in. */
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** ES256 and RS256: what passkeys and security keys offer. */
const ALGORITHMS = [-7, -257];

/**
 * SimpleWebAuthn, loaded by the first ceremony rather than with the server: its certificate
 * parsers took about a sixth of every start's CPU. It is a package the server loads from
 * node_modules, not a chunk of the build, so a build made while the server runs cannot take it away.
 */
const webAuthn = () => import('@simplewebauthn/server');

/** What a ceremony is bound to: its purpose, and the operator, session or enrolment link it was started for. */
export interface CeremonyContext {
  readonly purpose: CeremonyPurpose;
  readonly operator?: string;
  readonly sessionId?: string;
  readonly enrolment?: string;
}

/** Why a ceremony's answer was refused, as the sign-in log and the API's error name it. */
export type CeremonyRefusal = 'unknown_ceremony' | 'expired_ceremony' | 'unknown_passkey' | 'not_your_passkey' | 'not_verified';

const transportsOf = (row: Pick<ConsoleCredentialRow, 'transports'>) =>
  row.transports ? (JSON.parse(row.transports) as AuthenticatorTransportFuture[]) : undefined;

async function storeChallenge(db: Kysely<Database>, challenge: string, context: CeremonyContext, now: Date, userHandle: string | null = null): Promise<string> {
  const id = randomBytes(16).toString('base64url');
  await insertChallenge(
    db,
    {
      id,
      challenge,
      purpose: context.purpose,
      operator: context.operator ?? null,
      session_id: context.sessionId ?? null,
      enrolment: context.enrolment ?? null,
      user_handle: userHandle,
      expires_at: new Date(now.getTime() + CEREMONY_LIFETIME_MS).toISOString(),
    },
    now.toISOString(),
  );
  return id;
}

/**
 * Takes the challenge of a ceremony out (it serves once) and checks it was made for this
 * context and is alive; the challenge and the user handle it was made with, or why not.
 */
async function challengeFor(
  db: Kysely<Database>,
  ceremony: unknown,
  context: CeremonyContext,
  now: Date,
): Promise<{ challenge: string; userHandle: string | null } | CeremonyRefusal> {
  if (typeof ceremony !== 'string' || !BASE64URL.test(ceremony) || ceremony.length > 64) return 'unknown_ceremony';
  const row = await takeChallenge(db, ceremony);
  if (!row) return 'unknown_ceremony';
  const same =
    row.purpose === context.purpose &&
    row.operator === (context.operator ?? null) &&
    row.session_id === (context.sessionId ?? null) &&
    row.enrolment === (context.enrolment ?? null);
  if (!same) return 'unknown_ceremony';
  if (Date.parse(row.expires_at) < now.getTime()) return 'expired_ceremony';
  return { challenge: row.challenge, userHandle: row.user_handle };
}

/**
 * Starts making a passkey for an operator: options for the browser's startRegistration, which
 * leave out the passkeys they have (an authenticator holds one per operator), and the
 * ceremony's id to send back with the answer.
 */
export async function registrationOptions(
  db: Kysely<Database>,
  address: ConsoleAddress,
  operator: Operator,
  context: CeremonyContext,
  now: Date,
): Promise<{ ceremony: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const existing = await credentialsOf(db, operator.key);
  // One user handle per operator, random (it names no one), shared by each of their passkeys.
  const userHandle = existing[0]?.user_handle ?? randomBytes(32).toString('base64url');
  const { generateRegistrationOptions } = await webAuthn();
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: address.rpId,
    userName: operator.email,
    userDisplayName: operator.name,
    userID: Buffer.from(userHandle, 'base64url'),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.id, transports: transportsOf(row) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
    supportedAlgorithmIDs: ALGORITHMS,
    timeout: CEREMONY_LIFETIME_MS,
  });
  return { ceremony: await storeChallenge(db, options.challenge, context, now, userHandle), options };
}

/**
 * Checks the browser's answer to a registration ceremony: the challenge it was given, this
 * site's origin and relying party, user verification. Gives the passkey to store (the caller
 * stores it with whatever else the ceremony was for, in one transaction), or why not.
 */
export async function verifyRegistration(
  db: Kysely<Database>,
  address: ConsoleAddress,
  ceremony: unknown,
  response: unknown,
  context: CeremonyContext & { operator: string },
  now: Date,
): Promise<{ credential: NewConsoleCredential } | { refused: CeremonyRefusal }> {
  const found = await challengeFor(db, ceremony, context, now);
  if (typeof found === 'string') return { refused: found };
  const { verifyRegistrationResponse } = await webAuthn();
  try {
    const verification = await verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge: found.challenge,
      expectedOrigin: address.origin,
      expectedRPID: address.rpId,
      requireUserVerification: true,
      supportedAlgorithmIDs: ALGORITHMS,
    });
    if (!verification.verified) return { refused: 'not_verified' };
    const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
    return {
      credential: {
        id: credential.id,
        operator: context.operator,
        user_handle: found.userHandle ?? randomBytes(32).toString('base64url'),
        public_key: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports?.length ? JSON.stringify(credential.transports) : null,
        device_type: credentialDeviceType,
        backed_up: credentialBackedUp ? 1 : 0,
        created_at: now.toISOString(),
        last_used_at: now.toISOString(),
      },
    };
  } catch {
    // A malformed answer, a wrong origin or challenge, no user verification: each is thrown, and each is a refusal.
    return { refused: 'not_verified' };
  }
}

/**
 * Starts a passkey check: options for the browser's startAuthentication. For signing in, no
 * passkey is named (the authenticator offers the operator's discoverable one); for a check
 * again, only the signed-in operator's passkeys are allowed.
 */
export async function authenticationOptions(
  db: Kysely<Database>,
  address: ConsoleAddress,
  context: CeremonyContext,
  now: Date,
): Promise<{ ceremony: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const allowed = context.operator ? await credentialsOf(db, context.operator) : [];
  const { generateAuthenticationOptions } = await webAuthn();
  const options = await generateAuthenticationOptions({
    rpID: address.rpId,
    allowCredentials: allowed.map((row) => ({ id: row.id, transports: transportsOf(row) })),
    userVerification: 'required',
    timeout: CEREMONY_LIFETIME_MS,
  });
  return { ceremony: await storeChallenge(db, options.challenge, context, now), options };
}

/**
 * Checks the browser's answer to a passkey check: a passkey an operator made here (theirs, when
 * the ceremony names an operator), signed over the challenge with user verification, its
 * counter never going back. Notes its use. Gives the passkey, or why not and what the answer
 * claimed, for the sign-in log.
 */
export async function verifyAuthentication(
  db: Kysely<Database>,
  address: ConsoleAddress,
  ceremony: unknown,
  response: unknown,
  context: CeremonyContext,
  now: Date,
): Promise<{ credential: ConsoleCredentialRow } | { refused: CeremonyRefusal; credentialId?: string; operator?: string }> {
  const found = await challengeFor(db, ceremony, context, now);
  if (typeof found === 'string') return { refused: found };
  const answer = response as AuthenticationResponseJSON | undefined;
  // An id as an authenticator makes it (base64url, at most 1023 bytes): anything else names no passkey, and is neither looked up nor logged.
  const credentialId = typeof answer?.id === 'string' && BASE64URL.test(answer.id) && answer.id.length <= 1400 ? answer.id : undefined;
  const row = credentialId ? await credentialById(db, credentialId) : undefined;
  if (!row) return { refused: 'unknown_passkey', credentialId };
  if (context.operator && row.operator !== context.operator) return { refused: 'not_your_passkey', credentialId, operator: row.operator };
  const userHandle = answer?.response?.userHandle;
  if (userHandle && userHandle !== row.user_handle) return { refused: 'not_verified', credentialId, operator: row.operator };
  const { verifyAuthenticationResponse } = await webAuthn();
  try {
    const verification = await verifyAuthenticationResponse({
      response: answer as AuthenticationResponseJSON,
      expectedChallenge: found.challenge,
      expectedOrigin: address.origin,
      expectedRPID: address.rpId,
      credential: { id: row.id, publicKey: Buffer.from(row.public_key, 'base64url'), counter: Number(row.counter), transports: transportsOf(row) },
      requireUserVerification: true,
    });
    if (!verification.verified) return { refused: 'not_verified', credentialId, operator: row.operator };
    await credentialUsed(db, row.id, verification.authenticationInfo.newCounter, now.toISOString());
    return { credential: row };
  } catch {
    // A signature that does not verify, a counter gone back (a cloned authenticator), a wrong origin: refused.
    return { refused: 'not_verified', credentialId, operator: row.operator };
  }
}
