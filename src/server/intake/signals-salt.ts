import { createHmac, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { isIPv6 } from 'node:net';
import type { ServerConfig } from '../config.ts';
import { clientAddress } from '../client-address.ts';

/** Hex characters kept of each hash: 128 bits, plenty to tell clients apart, nothing to reverse. */
const HASH_LENGTH = 32;

/**
 * The secret the signals' salts derive from: SIGNALS_SECRET, or else a random key kept in a
 * file under DATA_DIR, created on first use with permissions 0600. It lives outside the
 * database, so that a copy of the database alone cannot test guessed addresses against it.
 * The verification codes' hashes and the voters' proofs are keyed from it too (src/server/verify/).
 */
export function signalsSecret(config: Pick<ServerConfig, 'signalsSecret' | 'signalsKeyFile'>): string {
  if (config.signalsSecret) return config.signalsSecret;
  try {
    return readFileSync(config.signalsKeyFile, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  makeDirectory(dirname(config.signalsKeyFile));
  try {
    // 'wx': of two processes starting at once, one creates the file and the other reads it.
    const fd = openSync(config.signalsKeyFile, 'wx', 0o600);
    writeSync(fd, `${randomBytes(32).toString('hex')}\n`);
    closeSync(fd);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(config.signalsKeyFile, 'utf8').trim();
}

/** Creates a folder and its missing parents, one level at a time (Node's recursive mkdir can spin forever on some file systems). */
function makeDirectory(dir: string): void {
  try {
    mkdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    if (code !== 'ENOENT' || dirname(dir) === dir) throw error;
    makeDirectory(dirname(dir));
    mkdirSync(dir);
  }
}

/**
 * A survey's salt: the secret and the project id through HMAC, so no two surveys' hashes can be joined.
 * Exported only so its unit test can check it directly; the product reaches it through requestHashes.
 * @internal
 */
export function surveySalt(secret: string, projectId: string): Buffer {
  return createHmac('sha256', secret).update(`peervote-signals\u0000${projectId}`).digest();
}

/**
 * The address as signals compare it: an IPv6 address by its /64 network, which one household or
 * device keeps while its privacy addresses change; an IPv4 address whole.
 * Exported only so its unit test can check it directly; the product reaches it through requestHashes.
 * @internal
 */
export function addressKey(address: string): string {
  const plain = address.replace(/^::ffff:(?=\d+\.)/i, '');
  if (!isIPv6(plain)) return plain;
  const [head, tail = ''] = plain.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = plain.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * The salted hashes a ballot keeps of its client: of the address (by addressKey) and of the User-Agent header.
 * Exported only so its unit test can check it directly; the product reaches it through requestHashes.
 * @internal
 */
export function clientHashes(salt: Buffer | KeyObject, address: string, userAgent: string | null): { clientHash: string; agentHash: string } {
  const hash = (kind: string, value: string) => createHmac('sha256', salt).update(`${kind}\u0000${value}`).digest('hex').slice(0, HASH_LENGTH);
  return { clientHash: hash('address', addressKey(address)), agentHash: hash('agent', userAgent ?? '') };
}

/** The secret read from its file, and each survey's salt made from it as a key object: Node prepares a key given as bytes anew on every HMAC, at several times the cost of the hash itself. */
let cached: { file: string; secret: string | undefined; salts: Map<string, KeyObject> } | undefined;

/** The survey's salt as a key object, made once per survey and secret. */
function saltKey(secret: string, projectId: string, salts: Map<string, KeyObject>): KeyObject {
  let key = salts.get(projectId);
  if (!key) {
    key = createSecretKey(surveySalt(secret, projectId));
    salts.set(projectId, key);
  }
  return key;
}

/**
 * The hashes of the client sending a ballot to a survey, the address taken as the rate limit
 * takes it (TRUST_PROXY aware). Signals flag, they never refuse: when the key file cannot be
 * read or written, the ballot is stored without hashes and the log says why, once.
 */
export function requestHashes(
  request: Request,
  connection: string | undefined,
  config: ServerConfig,
  projectId: string,
): { clientHash?: string; agentHash?: string } {
  if (cached?.file !== config.signalsKeyFile) {
    cached = { file: config.signalsKeyFile, secret: undefined, salts: new Map() };
    try {
      cached.secret = signalsSecret(config);
    } catch (error) {
      console.error(
        `Fraud signals are off: cannot read or create ${config.signalsKeyFile} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); set SIGNALS_SECRET or make DATA_DIR writable.`,
      );
    }
  }
  if (!cached.secret) return {};
  return clientHashes(saltKey(cached.secret, projectId, cached.salts), clientAddress(request, connection, config), request.headers.get('user-agent'));
}
