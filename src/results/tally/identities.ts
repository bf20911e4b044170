import { DatabaseSync } from 'node:sqlite';
import { answeringThread } from '../../server/answering-thread.ts';
import type { DuplicateOf } from './rules.ts';

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

/**
 * A Bloom filter of fixed size: says "never added" for most keys it has not seen, and never for
 * one it has. 2^27 bits (16 MB) answer wrongly once in some twenty thousand keys at three million
 * keys, and still mostly right at thirty million; its memory does not grow with the voters.
 */
function bloomFilter(bits = 2 ** 27) {
  const words = new Uint32Array(bits / 32);
  const mask = bits - 1;
  // Two FNV-1a hashes of the key, combined into four probes (Kirsch and Mitzenmacher).
  const hashes = (key: string): [number, number] => {
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    }
    return [h1, h2 | 1];
  };
  return {
    add(key: string) {
      const [h1, h2] = hashes(key);
      for (let k = 0; k < 4; k++) {
        const bit = (h1 + Math.imul(k, h2)) & mask;
        words[bit >>> 5] |= 1 << (bit & 31);
      }
    },
    mayHave(key: string) {
      const [h1, h2] = hashes(key);
      for (let k = 0; k < 4; k++) {
        const bit = (h1 + Math.imul(k, h2)) & mask;
        if ((words[bit >>> 5] & (1 << (bit & 31))) === 0) return false;
      }
      return true;
    },
  };
}

/** The register's kinds of key, as the small numbers its table stores, and back. */
const KIND_NUMBER: Record<IdentityKey['by'], number> = { 'personal link': 0, email: 1, license: 2 };
/** The kinds of key by their number (KIND_NUMBER). */
export const KIND_NAMES: ReadonlyArray<IdentityKey['by']> = ['personal link', 'email', 'license'];

/**
 * A register in a private temporary SQLite file of its own (SQLite deletes it on close), read
 * and written through prepared statements with no round trip: a million voters take some
 * megabytes of disk and a fixed page cache rather than this process's heap, whichever database
 * the ballots are in, and a key costs one insert, plus one look-up when the Bloom filter says
 * it may have been seen. `close` removes it.
 */
export function scratchRegister(): IdentityRegister & { close(): void } {
  const file = new DatabaseSync('');
  file.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = -16000;');
  file.exec('CREATE TABLE identities (kind INTEGER NOT NULL, key TEXT NOT NULL, ballot_id TEXT NOT NULL, PRIMARY KEY (kind, key)) WITHOUT ROWID');
  // One transaction for the file's whole life, never committed: a commit a page would write every page it touched.
  file.exec('BEGIN');
  const insert = file.prepare('INSERT INTO identities (kind, key, ballot_id) VALUES (?, ?, ?)');
  const find = file.prepare('SELECT ballot_id FROM identities WHERE kind = ? AND key = ?');
  find.setReturnArrays(true);
  const seen = bloomFilter();
  return {
    async check(ballots) {
      return ballots.map(({ id, keys }) => {
        let result: DuplicateOf | undefined;
        for (const { by, key } of keys) {
          const kind = KIND_NUMBER[by];
          const bloomKey = `${kind}${key}`;
          const first = seen.mayHave(bloomKey) ? (find.get(kind, key) as unknown as [string] | undefined)?.[0] : undefined;
          if (first !== undefined) {
            result ??= { ballotId: first, by };
            continue;
          }
          insert.run(kind, key, id);
          seen.add(bloomKey);
        }
        return result;
      });
    },
    close() {
      file.close();
    },
  };
}

/**
 * scratchRegister in a thread of its own (identity-register.worker.ts): `check` posts the page
 * and resolves when the thread answers, so that the caller can count another page meanwhile.
 * Pages are answered in the order they were checked. `close` ends the thread.
 */
export function threadRegister(): IdentityRegister & { close(): Promise<void> } {
  // It holds a page of keys at a time, the Bloom filter (16 MB) and SQLite's page cache outside the heap: a small heap of its own will do.
  const thread = answeringThread<Array<string | number>, Array<string | number>>(
    new URL('./identity-register.worker.ts', import.meta.url),
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
    // Asked rather than terminated, so that the thread closes its file, which SQLite then deletes.
    close: () => thread.close(),
  };
}
