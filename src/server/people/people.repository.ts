import { createCipheriv, createDecipheriv, createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { PersonValues } from '../../survey/config/config.struct.ts';
import { addressKey, licenceKey } from '../../survey/people/verification.ts';
import { signalsSecret } from '../intake/signals-salt.ts';
import type { ServerConfig } from '../config.ts';
import { secretHash } from '../tokens.ts';

// A survey's invited people, in the database: looked up one at a time by their secret's hash (a
// personal link), their address or their licence number (a verified voter); read whole only by the
// operator's commands, which print and mail the links.

/** People written in one statement: 7 values each, well under either database's limit on a statement's parameters. */
const BATCH = 1000;

/** Bytes of a sealed secret's nonce and tag (AES-256-GCM). */
const NONCE = 12;
const TAG = 16;

/**
 * The key personal secrets are sealed under: derived from the server's secret (SIGNALS_SECRET, or
 * the key file under DATA_DIR), which lives outside the database, so that a copy of the database
 * alone holds no working link. The API and the operator's commands must share that secret.
 */
export function peopleKey(config: Pick<ServerConfig, 'signalsSecret' | 'signalsKeyFile'>): KeyObject {
  // A key object, prepared once: a key given as bytes is prepared anew by every cipher, at several times the cost of sealing.
  return createSecretKey(createHmac('sha256', signalsSecret(config)).update('peervote personal links').digest());
}

/** A secret sealed under the key: nonce, tag and ciphertext, in base64url. */
function seal(key: KeyObject, secret: string, nonce: Buffer): string {
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** The secret a sealed text holds; throws when it was sealed under another key. */
function unseal(key: KeyObject, text: string): string {
  const bytes = Buffer.from(text, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, NONCE));
  decipher.setAuthTag(bytes.subarray(NONCE, NONCE + TAG));
  try {
    return Buffer.concat([decipher.update(bytes.subarray(NONCE + TAG)), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('The personal links in the database were sealed under another key: give this process the SIGNALS_SECRET (or DATA_DIR) the survey API has.');
  }
}

/** The text of a person's value, or ''. */
const textOf = (value: PersonValues[string] | undefined) => (typeof value === 'string' ? value : '');

/**
 * Replaces a survey's people with `people` (secret → values, in their order, in maps read one
 * after the other) and records the digest of the source they were read from, in
 * one transaction: a reader sees the old people or the new, never half of them. A piece that
 * throws rolls it all back. With `unlessCurrent`, it first takes the survey's source row and
 * leaves everything as it is when that row already holds this digest (another process wrote
 * these people while this one waited): false then, true when it replaced them.
 */
export async function replacePeople(
  db: Kysely<Database>,
  projectId: string,
  people: Iterable<Record<string, PersonValues>>,
  source: { digest: string; licenceField: string; key: KeyObject; now: Date; unlessCurrent?: boolean },
): Promise<boolean> {
  const row = ([secret, person]: [string, PersonValues], position: number, nonce: Buffer) => ({
    project_id: projectId,
    secret_hash: secretHash(secret),
    sealed_secret: seal(source.key, secret, nonce),
    email_key: person.email === undefined ? '' : addressKey(textOf(person.email)),
    licence_key: licenceKey(textOf(person[source.licenceField])),
    position,
    person: JSON.stringify(person),
  });
  const write = async (trx: Kysely<Database>): Promise<boolean> => {
    if (source.unlessCurrent) {
      // An update that changes nothing, to hold the row (PostgreSQL's row lock, SQLite's write
      // lock) before reading it: a reader that only read it would see the digest from before a
      // writer still in its transaction (invite's), and then read all the people in again.
      await trx.updateTable('people_sources').set({ digest: sql`digest` }).where('project_id', '=', projectId).execute();
      if ((await peopleDigest(trx, projectId)) === source.digest) return false;
    }
    // The digest first: its row stays locked to the end, so that two processes reading the same file
    // at once (two API processes starting) write one after the other rather than into each other.
    const imported_at = source.now.toISOString();
    await trx
      .insertInto('people_sources')
      .values({ project_id: projectId, digest: source.digest, imported_at })
      .onConflict((conflict) => conflict.column('project_id').doUpdateSet({ digest: source.digest, imported_at }))
      .execute();
    await trx.deleteFrom('people').where('project_id', '=', projectId).execute();
    let position = 0;
    for (const piece of people) {
      const entries = Object.entries(piece);
      for (let i = 0; i < entries.length; i += BATCH) {
        const batch = entries.slice(i, i + BATCH);
        // The batch's nonces drawn at once: a call for each person costs more than the sealing.
        const nonces = randomBytes(NONCE * batch.length);
        const rows = batch.map((entry, j) => row(entry, position + j, nonces.subarray(j * NONCE, (j + 1) * NONCE)));
        await trx.insertInto('people').values(rows).execute();
        position += batch.length;
        // The event loop between batches: the API goes on answering while a large file is read in.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    return true;
  };
  // Inside a caller's transaction already (invite's, with its audit entry), or in one of its own.
  return db.isTransaction ? write(db) : db.transaction().execute(write);
}

/** The digest of the source a survey's people were last read from, or undefined before the first reading. */
export async function peopleDigest(db: Kysely<Database>, projectId: string): Promise<string | undefined> {
  const row = await db.selectFrom('people_sources').select('digest').where('project_id', '=', projectId).executeTakeFirst();
  return row?.digest;
}

/**
 * How many people a survey has invited: its people but the demonstration secret's, counted on the
 * primary key's index (project_id first), never by reading the rows.
 */
export async function invitedCount(db: Kysely<Database>, projectId: string, leaveOut: string): Promise<number> {
  const row = await db
    .selectFrom('people')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('project_id', '=', projectId)
    .where('secret_hash', '!=', secretHash(leaveOut))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The person a personal link's secret names, by one indexed lookup of its hash; undefined when it names no one. */
export async function personBySecret(db: Kysely<Database>, projectId: string, secret: string): Promise<PersonValues | undefined> {
  const row = await db
    .selectFrom('people')
    .select('person')
    .where('project_id', '=', projectId)
    .where('secret_hash', '=', secretHash(secret))
    .executeTakeFirst();
  return row ? (JSON.parse(row.person) as PersonValues) : undefined;
}

/** The first invited person (in the file's order) with this address or licence number, as compared, and their secret. */
export async function personByContact(
  db: Kysely<Database>,
  projectId: string,
  contact: { email: string } | { licence: string },
  key: KeyObject,
): Promise<{ secret: string; person: PersonValues } | undefined> {
  let query = db.selectFrom('people').select(['sealed_secret', 'person']).where('project_id', '=', projectId).where('email_key', '!=', '');
  query = 'email' in contact ? query.where('email_key', '=', contact.email) : query.where('licence_key', '=', contact.licence);
  const row = await query.orderBy('position').limit(1).executeTakeFirst();
  return row ? { secret: unseal(key, row.sealed_secret), person: JSON.parse(row.person) as PersonValues } : undefined;
}

/** Every person of a survey, secret → values, in the file's order: for the operator's commands, which print and mail the links. */
export async function peopleOf(db: Kysely<Database>, projectId: string, key: KeyObject): Promise<Record<string, PersonValues>> {
  const rows = await db.selectFrom('people').select(['sealed_secret', 'person']).where('project_id', '=', projectId).orderBy('position').execute();
  const people: Record<string, PersonValues> = {};
  for (const row of rows) people[unseal(key, row.sealed_secret)] = JSON.parse(row.person) as PersonValues;
  return people;
}
