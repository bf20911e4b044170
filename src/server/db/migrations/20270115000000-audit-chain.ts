import { createHash } from 'node:crypto';
import { SqliteAdapter, type Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never against today's table types. The hash below
// is the canonical form of this migration's day (src/server/db/audit-chain.ts), copied so that
// what this migration writes never changes.

const FIELDS = ['seq', 'id', 'project_id', 'at', 'actor', 'actor_email', 'action', 'subject', 'reason', 'details', 'via', 'role', 'session', 'prev_hash'];
const GENESIS = '0'.repeat(64);
const COLUMNS = ['seq', 'actor_email', 'via', 'role', 'session', 'prev_hash', 'hash'];

const hashOf = (row: Record<string, unknown>) =>
  createHash('sha256')
    .update(JSON.stringify(FIELDS.map((field) => row[field] ?? null)), 'utf8')
    .digest('hex');

/** Each survey's entries numbered and chained in the order of their ids, the order they were read in until now. */
async function chainEarlierEntries(db: Kysely<any>): Promise<void> {
  const surveys = await db.selectFrom('audit_log').select('project_id').distinct().execute();
  for (const { project_id } of surveys) {
    const rows = await db.selectFrom('audit_log').selectAll().where('project_id', '=', project_id).orderBy('id').execute();
    let prev = GENESIS;
    for (const [i, row] of rows.entries()) {
      const chained = { ...row, seq: i + 1, prev_hash: prev };
      prev = hashOf(chained);
      await db.updateTable('audit_log').set({ seq: chained.seq, prev_hash: chained.prev_hash, hash: prev }).where('id', '=', row.id).execute();
    }
  }
}

/**
 * The audit trail names through what each act was done (`via`: the command line, the console, or
 * a mail link for a recipient's unsubscribe) and, when known, the operator's address, role and
 * console session (its hash). Each survey's entries become a hash chain: `seq` numbers them,
 * `prev_hash` and `hash` link them, computed here for the entries already there; one number per
 * survey. On SQLite, which runs migrations outside a transaction, in one transaction of its own.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const steps = async (trx: Kysely<any>) => {
    await trx.schema.alterTable('audit_log').addColumn('seq', 'integer').execute();
    await trx.schema.alterTable('audit_log').addColumn('actor_email', 'text').execute();
    await trx.schema
      .alterTable('audit_log')
      .addColumn('via', 'text', (col) => col.notNull().defaultTo('command line'))
      .execute();
    for (const column of ['role', 'session', 'prev_hash', 'hash']) await trx.schema.alterTable('audit_log').addColumn(column, 'text').execute();
    await trx.updateTable('audit_log').set({ via: 'mail link' }).where('action', '=', 'unsubscribe').where('actor', '=', 'recipient').execute();
    await chainEarlierEntries(trx);
    await trx.schema.createIndex('audit_log_seq').unique().on('audit_log').columns(['project_id', 'seq']).execute();
  };
  if (db.getExecutor().adapter instanceof SqliteAdapter) await db.transaction().execute(steps);
  else await steps(db);
}

/** Drops the chain and the new columns. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_log_seq').ifExists().execute();
  for (const column of COLUMNS) await db.schema.alterTable('audit_log').dropColumn(column).execute();
}
