import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
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
export interface IdentityRegister {
  /** For each ballot, in the order given (the order they were received): the ballot it repeats, if any. */
  check(ballots: ReadonlyArray<{ id: string; keys: readonly IdentityKey[] }>): Promise<Array<DuplicateOf | undefined>>;
}

const keyOf = (identity: IdentityKey) => `${identity.by}\u0000${identity.key}`;

/** A register in memory, for tests and small surveys: it grows with the voters. */
export function memoryRegister(): IdentityRegister {
  const first = new Map<string, string>();
  return {
    async check(ballots) {
      return ballots.map(({ id, keys }) => {
        const hit = keys.find((identity) => first.has(keyOf(identity)));
        const found = hit && { ballotId: first.get(keyOf(hit))!, by: hit.by };
        for (const identity of keys) if (!first.has(keyOf(identity))) first.set(keyOf(identity), id);
        return found;
      });
    },
  };
}

/** The temporary table the database register keeps its keys in. */
const TABLE = 'tally_identities';

/**
 * A register in a temporary table of the database, so that a million voters take the
 * database's disk rather than this process's memory. `db` must be one connection
 * (`db.connection().execute(…)`): a temporary table lives in its connection alone.
 */
export async function databaseRegister(db: Kysely<Database>): Promise<IdentityRegister & { drop(): Promise<void> }> {
  const any = db as unknown as Kysely<any>;
  await any.schema.dropTable(TABLE).ifExists().execute();
  await any.schema
    .createTable(TABLE)
    .temporary()
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('key', 'text', (col) => col.notNull())
    .addColumn('ballot_id', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint(`${TABLE}_pk`, ['kind', 'key'])
    .execute();
  return {
    async check(ballots) {
      const all = ballots.flatMap(({ keys }) => keys);
      const earlier = new Map<string, string>();
      for (const by of ['personal link', 'email', 'license'] as const) {
        const wanted = [...new Set(all.filter((identity) => identity.by === by).map((identity) => identity.key))];
        if (!wanted.length) continue;
        const rows = await any.selectFrom(TABLE).select(['key', 'ballot_id']).where('kind', '=', by).where('key', 'in', wanted).execute();
        for (const row of rows) earlier.set(keyOf({ by, key: row.key }), row.ballot_id);
      }
      const fresh = new Map<string, { kind: string; key: string; ballot_id: string }>();
      const found = ballots.map(({ id, keys }) => {
        const hit = keys.find((identity) => earlier.has(keyOf(identity)));
        const result = hit && { ballotId: earlier.get(keyOf(hit))!, by: hit.by };
        for (const identity of keys) {
          if (earlier.has(keyOf(identity))) continue;
          earlier.set(keyOf(identity), id);
          fresh.set(keyOf(identity), { kind: identity.by, key: identity.key, ballot_id: id });
        }
        return result;
      });
      const rows = [...fresh.values()];
      // A few hundred rows an insert keeps well under either database's limit on parameters.
      for (let start = 0; start < rows.length; start += 300) await any.insertInto(TABLE).values(rows.slice(start, start + 300)).execute();
      return found;
    },
    async drop() {
      await sql`drop table if exists ${sql.table(TABLE)}`.execute(any);
    },
  };
}
