import { createCipheriv, createDecipheriv, createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { SqliteAdapter, sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { PersonValues } from '../../survey/config/config.struct.ts';
import { addressKey, licenceKey } from '../../survey/people/verification.ts';
import { signalsSecret } from '../intake/signals-salt.ts';
import type { ServerConfig } from '../config.ts';
import { secretHash } from '../tokens.ts';
import { DEMO_SECRET } from '../../survey/people/link.ts';
import { RosterTally } from '../../survey/people/roster-groups.ts';

// A survey's invited people, in the database: looked up one at a time by their secret's hash (a
// personal link), their address or their licence number (a verified voter); read whole only by the
// operator's commands, which print and mail the links.

/** People written in one statement: 9 values each, well under either database's limit on a statement's parameters. */
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

/** Where a survey's people are read from, for replacePeople. */
export interface PeopleSource {
  /** The digest of the source (people-import.ts's peopleSourceDigest), kept to tell a changed source. */
  digest: string;
  licenceField: string;
  /** The roster columns the people are counted by (rosterColumns of src/survey/people/roster-groups.ts). */
  columns: readonly string[];
  key: KeyObject;
  now: Date;
  /** Leave the people as they are when the source row, once held, already holds this digest. */
  unlessCurrent?: boolean;
}

/** The personal secrets of a survey that have a current ballot, from the partial index that keeps one current ballot per secret. */
async function votedSecrets(db: Kysely<Database>, projectId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('ballots')
    .select('personal_secret')
    .where('project_id', '=', projectId)
    .where('personal_secret', 'is not', null)
    .where('replaced_by', 'is', null)
    .execute();
  return new Set(rows.map((row) => row.personal_secret as string));
}

/**
 * Replaces a survey's people with `people` (secret → values, in their order, in maps read one
 * after the other) and records the digest of the source they were read from, in
 * one transaction: a reader sees the old people or the new, never half of them. A piece that
 * throws rolls it all back. Each person is marked responded when their link has a current ballot,
 * and the survey's roster groups are counted afresh (the demonstration secret is no one). With
 * `unlessCurrent`, it first takes the survey's source row and leaves everything as it is when that
 * row already holds this digest (another process wrote these people while this one waited): false
 * then, true when it replaced them.
 */
export async function replacePeople(
  db: Kysely<Database>,
  projectId: string,
  people: Iterable<Record<string, PersonValues>>,
  source: PeopleSource,
): Promise<boolean> {
  const tally = new RosterTally(source.columns);
  const row = ([secret, person]: [string, PersonValues], position: number, nonce: Buffer, voted: Set<string>) => {
    const counted = secret !== DEMO_SECRET;
    const responded = counted && voted.has(secret);
    return {
      project_id: projectId,
      secret_hash: secretHash(secret),
      sealed_secret: seal(source.key, secret, nonce),
      email_key: person.email === undefined ? '' : addressKey(textOf(person.email)),
      licence_key: licenceKey(textOf(person[source.licenceField])),
      position,
      person: JSON.stringify(person),
      responded: responded ? 1 : 0,
      group_ids: counted ? tally.add(person, responded).join(' ') : '',
    };
  };
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
    const voted = await votedSecrets(trx, projectId);
    let position = 0;
    for (const piece of people) {
      const entries = Object.entries(piece);
      for (let i = 0; i < entries.length; i += BATCH) {
        const batch = entries.slice(i, i + BATCH);
        // The batch's nonces drawn at once: a call for each person costs more than the sealing.
        const nonces = randomBytes(NONCE * batch.length);
        const rows = batch.map((entry, j) => row(entry, position + j, nonces.subarray(j * NONCE, (j + 1) * NONCE), voted));
        await trx.insertInto('people').values(rows).execute();
        position += batch.length;
        // The event loop between batches: the API goes on answering while a large file is read in.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    await writeRosterGroups(trx, projectId, tally);
    return true;
  };
  // Inside a caller's transaction already (invite's, with its audit entry), or in one of its own.
  return db.isTransaction ? write(db) : db.transaction().execute(write);
}

/** Replaces a survey's roster columns and groups with those a tally counted. */
async function writeRosterGroups(trx: Kysely<Database>, projectId: string, tally: RosterTally): Promise<void> {
  await trx.deleteFrom('roster_columns').where('project_id', '=', projectId).execute();
  await trx.deleteFrom('roster_groups').where('project_id', '=', projectId).execute();
  const columns = tally.counted();
  if (columns.length)
    await trx
      .insertInto('roster_columns')
      .values(columns.map((column) => ({ project_id: projectId, ...column })))
      .execute();
  let batch: Array<{ project_id: string; id: number; column_name: string; value: string; invited: number; responded: number }> = [];
  const flush = async () => {
    if (batch.length) await trx.insertInto('roster_groups').values(batch).execute();
    batch = [];
  };
  for (const group of tally.groups()) {
    batch.push({ project_id: projectId, id: group.id, column_name: group.column, value: group.value, invited: group.invited, responded: group.responded });
    if (batch.length === BATCH) {
      await flush();
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  await flush();
  // PostgreSQL plans a column's largest groups by the table's statistics, which would otherwise
  // still say the table is small until autovacuum's next look (a sort of every group per request).
  if (!(trx.getExecutor().adapter instanceof SqliteAdapter)) await sql`ANALYZE roster_groups`.execute(trx);
}

/**
 * Counts a ballot from a personal link in its own transaction: the first current ballot of the
 * person marks them responded and adds one to each of their roster groups (everyone's among them);
 * a ballot that replaces theirs, or a secret that names no one, changes nothing.
 */
export async function markResponded(trx: Kysely<Database>, projectId: string, secret: string): Promise<void> {
  const mark = () =>
    trx
      .updateTable('people')
      .set({ responded: 1 })
      .where('project_id', '=', projectId)
      .where('secret_hash', '=', secretHash(secret))
      .where('responded', '=', 0)
      .returning('group_ids')
      .executeTakeFirst();
  // On PostgreSQL, a reading of the people under way holds their rows until it commits: the mark
  // waits for it, then finds the row it replaced gone. Asked again, it finds the new row, which that
  // reading counted from the ballots committed before this one, so without it.
  const marked = (await mark()) ?? (await mark());
  const ids = marked?.group_ids ? marked.group_ids.split(' ').map(Number) : [];
  if (!ids.length) return;
  await trx
    .updateTable('roster_groups')
    .set((eb) => ({ responded: eb('responded', '+', 1) }))
    .where('project_id', '=', projectId)
    .where('id', 'in', ids)
    .execute();
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

/** How many of a survey's people have a current ballot on their personal link, counted on the partial index of those marked responded. */
export async function respondedCount(db: Kysely<Database>, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('people')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('project_id', '=', projectId)
    .where('responded', '=', 1)
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
