import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { answeringThread } from '../../server/answering-thread.ts';
import type { DuplicateOf } from './rules.ts';
import { threadModule } from '../thread-module.ts';

/** One thing that tells a person apart: their personal link, email or license, normalised. */
export interface IdentityKey {
  by: DuplicateOf['by'];
  key: string;
}

/** A ballot's identity keys, blank ones left out. */
export function identityKeys(secret: string | null, email: string, license: string): IdentityKey[] {
  const keys: IdentityKey[] = [];
  if (secret) keys.push({ by: 'personal link', key: secret });
  if (email) keys.push({ by: 'email', key: email });
  if (license) keys.push({ by: 'license', key: license });
  return keys;
}

/**
 * Remembers who has voted, so that a later ballot from the same person is known: a ballot
 * repeats the first earlier ballot that shares any key with it. Every ballot's keys are kept,
 * a repeated one's too, so a chain (A and B share an email, B and C a license) is one person.
 */
interface IdentityRegister {
  /** For each ballot, in the order given (the order they were received): the ballot it repeats, if any. */
  check(ballots: ReadonlyArray<{ id: string; keys: readonly IdentityKey[] }>): Promise<Array<DuplicateOf | undefined>>;
}

/** The register's kinds of key, as the small numbers its table stores, and back. */
const KIND_NUMBER: Record<IdentityKey['by'], number> = { 'personal link': 0, email: 1, license: 2 };
/** The kinds of key by their number (KIND_NUMBER). */
export const KIND_NAMES: ReadonlyArray<IdentityKey['by']> = ['personal link', 'email', 'license'];

/** A key's hash in the register: a whole number from 1 to 2^32 - 1 (0 marks an empty slot). */
export type KeyHash = (kind: number, key: string) => number;

/** MurmurHash3's finish: every bit of the input moves every bit of the output. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/**
 * A hash of a kind and key, seeded at random for each register so that no one can choose keys
 * that collide in it: FNV-1a, mixed. A collision costs a read of the file, never a wrong answer
 * (scratchRegister compares the keys themselves).
 */
function seededHash(): KeyHash {
  const seed = (Math.random() * 2 ** 32) >>> 0;
  return (kind, key) => {
    let h = seed ^ kind;
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
    return fmix(h) >>> 0 || 1;
  };
}

/** Slots of the register's table to begin with; it doubles when three quarters are taken. */
const FIRST_SLOTS = 2 ** 16;

/** Records start at multiples of this many bytes, so that a 32-bit place reaches 32 GB of them. */
const RECORD_ALIGN = 8;

/** Bytes of records gathered before they are written to the file in one go. */
const WRITE_BATCH = 256 * 1024;

/**
 * A register of every key seen, exact and with no database: an open-addressing table of the
 * keys' hashes (a typed array outside the heap, 8 bytes a slot: some 32 MB for a million voters'
 * two or three keys), each pointing at its record (kind, key, first ballot) in a scratch file.
 * A key costs a hash, a probe and an appended record; the file is read only when a hash
 * matches, to compare the keys themselves (a repeat, almost always). The file is removed from
 * its folder as soon as it is open, so no key outlives the register, even when the process is
 * killed; `close` lets it go.
 */
export function scratchRegister(options: { hash?: KeyHash } = {}): IdentityRegister & { close(): void } {
  const hash = options.hash ?? seededHash();
  const folder = mkdtempSync(path.join(tmpdir(), 'peervote-register-'));
  const file = path.join(folder, 'keys');
  const fd = openSync(file, 'w+', 0o600);
  rmSync(folder, { recursive: true, force: true });
  let slots = FIRST_SLOTS;
  // Slots are a power of two: a hash's slot is its low bits.
  let mask = slots - 1;
  // Each slot is two numbers side by side, a probe one memory read: the key's hash (0 when empty)
  // and where its record starts in the file, in units of RECORD_ALIGN bytes.
  let table = new Uint32Array(slots * 2);
  let used = 0;
  // Records not written yet: `pending` holds the bytes from `written` on.
  let pending = Buffer.allocUnsafe(WRITE_BATCH * 2);
  let fill = 0;
  let written = 0;
  const flush = () => {
    if (fill === 0) return;
    writeSync(fd, pending, 0, fill, written);
    written += fill;
    fill = 0;
  };
  const grow = () => {
    const old = table;
    slots *= 2;
    mask = slots - 1;
    table = new Uint32Array(slots * 2);
    for (let i = 0; i < old.length; i += 2) {
      if (old[i] === 0) continue;
      let slot = old[i] & mask;
      while (table[slot * 2] !== 0) slot = (slot + 1) & mask;
      table[slot * 2] = old[i];
      table[slot * 2 + 1] = old[i + 1];
    }
  };
  // A record: kind (1 byte), key length (4), key, ballot id length (2), ballot id, in UTF-8; then
  // padding to a multiple of RECORD_ALIGN. Its place is returned in those units.
  const append = (kind: number, key: string, id: string): number => {
    const need = 7 + Buffer.byteLength(key) + Buffer.byteLength(id) + RECORD_ALIGN;
    if (fill + need > pending.length) {
      flush();
      if (need > pending.length) pending = Buffer.allocUnsafe(need);
    }
    const at = written + fill;
    pending[fill] = kind;
    const keyLength = pending.write(key, fill + 5);
    pending.writeUInt32LE(keyLength, fill + 1);
    const idLength = pending.write(id, fill + 7 + keyLength);
    pending.writeUInt16LE(idLength, fill + 5 + keyLength);
    fill += 7 + keyLength + idLength;
    fill += (RECORD_ALIGN - (fill % RECORD_ALIGN)) % RECORD_ALIGN;
    if (fill >= WRITE_BATCH) flush();
    if (at / RECORD_ALIGN >= 2 ** 32) throw new Error('The duplicate register is full: its scratch file has reached 32 GB.');
    return at / RECORD_ALIGN;
  };
  const header = Buffer.alloc(5);
  // The bytes at `at`, from the file or from what is still pending.
  const bytesAt = (at: number, length: number, into: Buffer): Buffer => {
    if (at >= written) return pending.subarray(at - written, at - written + length);
    readSync(fd, into, 0, length, at);
    return into.subarray(0, length);
  };
  // The first ballot of the record at `at` when it holds this kind and key, else undefined.
  const firstBallot = (at: number, kind: number, key: string): string | undefined => {
    const head = bytesAt(at, 5, header);
    if (head[0] !== kind) return undefined;
    const keyLength = head.readUInt32LE(1);
    const rest = bytesAt(at + 5, keyLength + 2, Buffer.allocUnsafe(keyLength + 2));
    if (rest.toString('utf8', 0, keyLength) !== key) return undefined;
    const idLength = rest.readUInt16LE(keyLength);
    return bytesAt(at + 7 + keyLength, idLength, Buffer.allocUnsafe(idLength)).toString('utf8');
  };
  return {
    async check(ballots) {
      return ballots.map(({ id, keys }) => {
        let result: DuplicateOf | undefined;
        for (const { by, key } of keys) {
          const kind = KIND_NUMBER[by];
          const h = hash(kind, key);
          let slot = h & mask;
          let first: string | undefined;
          for (; table[slot * 2] !== 0; slot = (slot + 1) & mask) {
            if (table[slot * 2] === h && (first = firstBallot(table[slot * 2 + 1] * RECORD_ALIGN, kind, key)) !== undefined) break;
          }
          if (first !== undefined) {
            result ??= { ballotId: first, by };
            continue;
          }
          table[slot * 2] = h;
          table[slot * 2 + 1] = append(kind, key, id);
          if (++used * 4 > slots * 3) grow();
        }
        return result;
      });
    },
    close() {
      closeSync(fd);
    },
  };
}

/**
 * scratchRegister in a thread of its own (identity-register.worker.ts): `check` posts the page
 * and resolves when the thread answers, so that the caller can count another page meanwhile.
 * Pages are answered in the order they were checked. `close` ends the thread.
 */
export function threadRegister(): IdentityRegister & { close(): Promise<void> } {
  // It holds a page of keys at a time, and its table outside the heap: a small heap of its own will do.
  const thread = answeringThread<Array<string | number>, Array<string | number>>(
    threadModule(new URL('./identity-register.worker.ts', import.meta.url)),
    'The duplicate register',
    {
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 },
    },
  );
  return {
    async check(ballots) {
      // Flat: id, how many keys, then kind and key for each; the answers come back as index, ballot id, kind.
      const flat: Array<string | number> = [];
      for (const { id, keys } of ballots) {
        flat.push(id, keys.length);
        for (const { by, key } of keys) flat.push(KIND_NUMBER[by], key);
      }
      const answers = await thread.ask(flat);
      const found = new Array<DuplicateOf | undefined>(ballots.length).fill(undefined);
      for (let i = 0; i < answers.length; i += 3) found[answers[i] as number] = { ballotId: answers[i + 1] as string, by: answers[i + 2] as DuplicateOf['by'] };
      return found;
    },
    // Asked rather than terminated, so that the thread closes its file.
    close: () => thread.close(),
  };
}
