import { sql, type Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never against today's table types.

/**
 * Adds the console's send runs and the claims that let several API processes share mail:
 * - `mail_runs`: one row a run of invitations or reminders started from the console, which
 *   goes on in the server and resumes after a restart; the process that drives it holds a
 *   lease (owner, host, process, expiry), and one run a survey is `running` at a time (a partial
 *   unique index, so two starts at once cannot both insert); an ended run keeps its messages'
 *   counts by status, so that its page does not count them again at each look;
 * - `mail_messages.run_id`: the run a message belongs to, counted for the run's progress;
 * - `mail_messages.claimed_by` and `claim_expires_at`: the process sending a receipt and until
 *   when, so that a receipt left `sending` by a process that died is claimed by one other, once;
 * - indexes for the console's table of messages, newest first by keyset, all or by status, and
 *   for the survey's messages counted by kind and status in the index alone.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mail_runs')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('project_id', 'text', (col) => col.notNull())
    .addColumn('campaign', 'text', (col) => col.notNull())
    .addColumn('rate', 'integer', (col) => col.notNull())
    .addColumn('base_url', 'text', (col) => col.notNull())
    .addColumn('started_by', 'text', (col) => col.notNull())
    .addColumn('started_by_email', 'text', (col) => col.notNull())
    .addColumn('started_at', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('total', 'integer')
    .addColumn('skipped', 'text')
    .addColumn('ended_at', 'text')
    .addColumn('outcome', 'text')
    .addColumn('counts', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_host', 'text')
    .addColumn('lease_pid', 'integer')
    .addColumn('lease_expires_at', 'text')
    .execute();
  await db.schema.createIndex('mail_runs_survey').on('mail_runs').columns(['project_id', 'started_at']).execute();
  await db.schema.createIndex('mail_runs_one_running').on('mail_runs').column('project_id').unique().where(sql.ref('state'), '=', 'running').execute();
  await db.schema.alterTable('mail_messages').addColumn('run_id', 'text').execute();
  await db.schema.alterTable('mail_messages').addColumn('claimed_by', 'text').execute();
  await db.schema.alterTable('mail_messages').addColumn('claim_expires_at', 'text').execute();
  await db.schema.createIndex('mail_messages_run').on('mail_messages').columns(['run_id', 'status']).execute();
  await db.schema.createIndex('mail_messages_page').on('mail_messages').columns(['project_id', 'created_at', 'message_id']).execute();
  await db.schema.createIndex('mail_messages_page_status').on('mail_messages').columns(['project_id', 'status', 'created_at', 'message_id']).execute();
  await db.schema.createIndex('mail_messages_counts').on('mail_messages').columns(['project_id', 'kind', 'status']).execute();
}

/** Drops them. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('mail_messages_counts').ifExists().execute();
  await db.schema.dropIndex('mail_messages_page_status').ifExists().execute();
  await db.schema.dropIndex('mail_messages_page').ifExists().execute();
  await db.schema.dropIndex('mail_messages_run').ifExists().execute();
  await db.schema.alterTable('mail_messages').dropColumn('claim_expires_at').execute();
  await db.schema.alterTable('mail_messages').dropColumn('claimed_by').execute();
  await db.schema.alterTable('mail_messages').dropColumn('run_id').execute();
  await db.schema.dropTable('mail_runs').ifExists().execute();
}
