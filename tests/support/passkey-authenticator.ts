import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

// A software authenticator for the API tests: it makes ES256 passkeys and answers WebAuthn
// ceremonies as a browser and a platform authenticator would (attestation "none", user present
// and verified), so that the server's real verification runs on real signatures. Its CBOR is
// the little WebAuthn needs: unsigned and negative integers, byte and text strings, maps.

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

/** CBOR's head of an item: its major type and its length or value. */
function head(major: number, value: number): Buffer {
  if (value < 24) return Buffer.from([(major << 5) | value]);
  if (value < 256) return Buffer.from([(major << 5) | 24, value]);
  if (value < 65536) return Buffer.from([(major << 5) | 25, value >> 8, value & 0xff]);
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(value, 1);
  return out;
}

/** A value in CBOR: a whole number, bytes, a text, or a map (of numbers or texts to values). */
type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;

function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  return Buffer.concat([head(5, value.size), ...[...value].flatMap(([key, item]) => [cbor(key), cbor(item)])]);
}

/** One passkey the authenticator holds. */
interface Held {
  id: Buffer;
  privateKey: KeyObject;
  coseKey: Buffer;
  userHandle: string;
  rpId: string;
  counter: number;
}

/** What a ceremony's options say, as the server sends them (PublicKeyCredential*OptionsJSON). */
interface Options {
  challenge: string;
  rp?: { id?: string };
  rpId?: string;
  user?: { id: string };
  allowCredentials?: Array<{ id: string }>;
  excludeCredentials?: Array<{ id: string }>;
}

/** How the authenticator answers: the origin the browser names, and whether it verifies the user (a PIN, a biometric). */
export interface AuthenticatorSettings {
  origin: string;
  userVerified?: boolean;
}

/** A software passkey authenticator, as a phone or a laptop's platform authenticator would answer. */
export class SoftAuthenticator {
  readonly held: Held[] = [];
  settings: AuthenticatorSettings;

  constructor(settings: AuthenticatorSettings) {
    this.settings = { userVerified: true, ...settings };
  }

  /** The flags of authenticator data: user present, user verified (unless set otherwise), and attested data when making a passkey. */
  private flags(attested: boolean): number {
    return 0x01 | (this.settings.userVerified ? 0x04 : 0) | (attested ? 0x40 : 0);
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.settings.origin, crossOrigin: false }));
  }

  /** Answers startRegistration's options: a new ES256 passkey for the user and relying party they name. */
  register(options: Options): Record<string, unknown> {
    const rpId = options.rp?.id ?? new URL(this.settings.origin).hostname;
    const excluded = new Set((options.excludeCredentials ?? []).map((credential) => credential.id));
    if (this.held.some((one) => excluded.has(b64url(one.id)))) throw new Error('InvalidStateError: this authenticator holds an excluded passkey');
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = cbor(
      new Map<number, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x as string, 'base64url')],
        [-3, Buffer.from(jwk.y as string, 'base64url')],
      ]),
    );
    const id = randomBytes(32);
    const counter = 0;
    const length = Buffer.from([id.length >> 8, id.length & 0xff]);
    const authData = Buffer.concat([sha256(rpId), Buffer.from([this.flags(true)]), Buffer.alloc(4), Buffer.alloc(16), length, id, coseKey]);
    const attestationObject = cbor(
      new Map<string, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    this.held.push({ id, privateKey, coseKey, userHandle: options.user?.id ?? '', rpId, counter });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** Answers startAuthentication's options with a passkey it holds for that relying party (one the options allow, when they name any). */
  authenticate(options: Options, pick?: (held: Held) => boolean): Record<string, unknown> {
    const rpId = options.rpId ?? new URL(this.settings.origin).hostname;
    const allowed = new Set((options.allowCredentials ?? []).map((credential) => credential.id));
    const passkey = this.held.find((one) => one.rpId === rpId && (allowed.size === 0 || allowed.has(b64url(one.id))) && (!pick || pick(one)));
    if (!passkey) throw new Error('NotAllowedError: no passkey for this relying party');
    passkey.counter += 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(passkey.counter);
    const authenticatorData = Buffer.concat([sha256(rpId), Buffer.from([this.flags(false)]), counter]);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), passkey.privateKey);
    return {
      id: b64url(passkey.id),
      rawId: b64url(passkey.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        userHandle: passkey.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
