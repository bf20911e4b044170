import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never against today's table types.

/**
 * The console's tables: the operators' passkeys, their sessions (a hash of each session's secret,
 * never the secret), their single-use enrolment links (a hash of the token), the challenges of
 * passkey ceremonies under way, and the sign-in log, every attempt won or lost. An operator is
 * named by their address in lower case, as operators.yaml gives it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('console_credentials')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('operator', 'text', (col) => col.notNull())
    .addColumn('user_handle', 'text', (col) => col.notNull())
    .addColumn('public_key', 'text', (col) => col.notNull())
    .addColumn('counter', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('transports', 'text')
    .addColumn('device_type', 'text', (col) => col.notNull())
    .addColumn('backed_up', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('console_credentials_operator').on('console_credentials').columns(['operator', 'created_at']).execute();
  await db.schema
    .createTable('console_sessions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('secret_hash', 'text', (col) => col.notNull())
    .addColumn('operator', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('last_seen_at', 'text', (col) => col.notNull())
    .addColumn('reauthenticated_at', 'text', (col) => col.notNull())
    .addColumn('agent', 'text')
    .addColumn('ended_at', 'text')
    .addColumn('ended_why', 'text')
    .execute();
  await db.schema.createIndex('console_sessions_operator').on('console_sessions').columns(['operator', 'created_at']).execute();
  await db.schema
    .createTable('console_enrolments')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('operator', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('used_at', 'text')
    .addColumn('via', 'text', (col) => col.notNull())
    .addColumn('issued_by', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('console_enrolments_operator').on('console_enrolments').columns(['operator', 'created_at']).execute();
  await db.schema
    .createTable('console_challenges')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('challenge', 'text', (col) => col.notNull())
    .addColumn('purpose', 'text', (col) => col.notNull())
    .addColumn('operator', 'text')
    .addColumn('session_id', 'text')
    .addColumn('enrolment', 'text')
    .addColumn('user_handle', 'text')
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('console_challenges_expiry').on('console_challenges').column('expires_at').execute();
  await db.schema
    .createTable('console_sign_ins')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('at', 'text', (col) => col.notNull())
    .addColumn('way', 'text', (col) => col.notNull())
    .addColumn('outcome', 'text', (col) => col.notNull())
    .addColumn('operator', 'text')
    .addColumn('credential_id', 'text')
    .addColumn('session_id', 'text')
    .addColumn('reason', 'text')
    .addColumn('client_hash', 'text')
    .addColumn('agent', 'text')
    .execute();
  await db.schema.createIndex('console_sign_ins_operator').on('console_sign_ins').columns(['operator', 'id']).execute();
}

/** Drops them. */
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['console_sign_ins', 'console_challenges', 'console_enrolments', 'console_sessions', 'console_credentials']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
