import { SqliteAdapter, sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.ts';
import type { AuditRow, AuditVia } from './tables/audit-log.table.ts';
import { entryHash, GENESIS_HASH, sessionHash, verifyChain, type ChainAnchor, type ChainCheck } from './audit-chain.ts';
import { uuidv7 } from '../ids.ts';

/** One change an operator made, as a command (or the console) records it. */
export interface AuditEntry {
  projectId: string;
  /** Who, as shown: `--by`, else the operating system's user; the operator's name in the console. */
  actor: string;
  action: string;
  subject?: string | null;
  reason?: string | null;
  /** Counts and ids that say what changed; stored as JSON. Never a voter's answers. */
  details?: Record<string, unknown> | null;
  now?: Date;
  /** Through what the act was done: the command line unless said. */
  via?: AuditVia;
  /** The operator's address, when the act came with one. */
  actorEmail?: string | null;
  /** The operator's role on the survey when they acted. */
  role?: string | null;
  /** The console session's id: the trail keeps its SHA-256 only. */
  sessionId?: string | null;
}

/** The fields of an audit entry that say who signed an act, and through what. */
export type ActSigner = Pick<AuditEntry, 'actor' | 'via' | 'actorEmail' | 'role' | 'sessionId'>;

/**
 * Holds the right to append to a survey's trail until the transaction ends, so that two appends
 * (two commands, two API processes) never both take the same head. On PostgreSQL a
 * transaction-scoped advisory lock keyed by the survey, taken before the head is read (under
 * READ COMMITTED, the isolation every caller uses, the read then sees the other's commit). On
 * SQLite, a write that changes nothing takes the database's write lock, or waits for it (the
 * busy timeout), before the head is read: a deferred transaction that read first would fail on
 * its first write once another process had appended.
 */
export async function lockTrail(trx: Transaction<Database>, projectId: string): Promise<void> {
  if (trx.getExecutor().adapter instanceof SqliteAdapter) await sql`UPDATE audit_log SET seq = seq WHERE 0`.execute(trx);
  else await sql`SELECT pg_advisory_xact_lock(hashtext('peervote audit_log'), hashtext(${projectId}))`.execute(trx);
}

/**
 * Appends an entry to its survey's trail, chained to the newest entry (audit-chain.ts). Call it in
 * the same transaction as the change it records, so that there is never a change without its
 * entry, nor an entry without its change; given no transaction, it opens one of its own. The
 * survey's trail stays locked until that transaction ends, so keep what follows the append short.
 */
export async function appendAudit(db: Kysely<Database> | Transaction<Database>, entry: AuditEntry): Promise<AuditRow> {
  if (!db.isTransaction) return db.transaction().execute((trx) => appendAudit(trx, entry));
  const trx = db as Transaction<Database>;
  await lockTrail(trx, entry.projectId);
  const head = await trx
    .selectFrom('audit_log')
    .select(['seq', 'hash'])
    .where('project_id', '=', entry.projectId)
    .where('seq', 'is not', null)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  const now = entry.now ?? new Date();
  const fields = {
    id: uuidv7(now.getTime()),
    project_id: entry.projectId,
    seq: (head?.seq ?? 0) + 1,
    at: now.toISOString(),
    actor: entry.actor,
    actor_email: entry.actorEmail ?? null,
    action: entry.action,
    subject: entry.subject ?? null,
    reason: entry.reason ?? null,
    details: entry.details ? JSON.stringify(entry.details) : null,
    via: entry.via ?? 'command line',
    role: entry.role ?? null,
    session: entry.sessionId ? sessionHash(entry.sessionId) : null,
    prev_hash: head?.hash ?? GENESIS_HASH,
  };
  const row: AuditRow = { ...fields, hash: entryHash(fields) };
  await trx.insertInto('audit_log').values(row).execute();
  return row;
}

/** A survey's audit trail, oldest first: in the order appended. */
export async function auditTrail(db: Kysely<Database>, projectId: string): Promise<AuditRow[]> {
  return db.selectFrom('audit_log').selectAll().where('project_id', '=', projectId).orderBy('seq').orderBy('id').execute();
}

/** The newest entry of a survey's trail: the state of the operators' decisions that a tally or an export reflects. */
export async function latestAudit(db: Kysely<Database>, projectId: string): Promise<AuditRow | undefined> {
  return db
    .selectFrom('audit_log')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('seq', 'is not', null)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Checks a survey's whole trail against its hash chain and the anchors given (audit-chain.ts,
 * verifyChain): `audit --verify` prints its message, and so may any other check of the trail.
 */
export async function verifyAuditTrail(db: Kysely<Database>, projectId: string, anchors: readonly ChainAnchor[] = []): Promise<ChainCheck> {
  return verifyChain(await auditTrail(db, projectId), anchors);
}

/** What narrows a page of a trail: the entries of one actor (by name), of one action. */
export interface AuditFilter {
  actor?: string;
  action?: string;
}

/**
 * One page of a survey's trail, newest first, by keyset on `seq` (the unique index on
 * (project_id, seq) answers it in one search, however long the trail): the `limit` entries before
 * `before` (the newest when absent), or, with `after`, the `limit` entries just after it. One more
 * entry than the page is read, so that the caller knows whether another page follows.
 */
export async function auditPage(
  db: Kysely<Database>,
  projectId: string,
  filter: AuditFilter,
  from: { before?: number; after?: number },
  limit: number,
): Promise<{ entries: AuditRow[]; more: boolean }> {
  let query = db.selectFrom('audit_log').selectAll().where('project_id', '=', projectId).where('seq', 'is not', null);
  if (filter.actor !== undefined) query = query.where('actor', '=', filter.actor);
  if (filter.action !== undefined) query = query.where('action', '=', filter.action);
  if (from.after !== undefined) {
    const rows = await query
      .where('seq', '>', from.after)
      .orderBy('seq', 'asc')
      .limit(limit + 1)
      .execute();
    return { entries: rows.slice(0, limit).reverse(), more: rows.length > limit };
  }
  if (from.before !== undefined) query = query.where('seq', '<', from.before);
  const rows = await query
    .orderBy('seq', 'desc')
    .limit(limit + 1)
    .execute();
  return { entries: rows.slice(0, limit), more: rows.length > limit };
}

/** The actors (by name) and the actions a survey's trail holds, each once and in order: what its filters offer. */
export async function auditChoices(db: Kysely<Database>, projectId: string): Promise<{ actors: string[]; actions: string[] }> {
  const [actors, actions] = await Promise.all([
    db.selectFrom('audit_log').select('actor').distinct().where('project_id', '=', projectId).orderBy('actor').execute(),
    db.selectFrom('audit_log').select('action').distinct().where('project_id', '=', projectId).orderBy('action').execute(),
  ]);
  return { actors: actors.map((row) => row.actor), actions: actions.map((row) => row.action) };
}
