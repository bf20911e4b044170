import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';
import type { AuditRow } from './audit-log.table.ts';
import { uuidv7 } from '../ids.ts';

/** One change an operator made, as a command records it. */
export interface AuditEntry {
  projectId: string;
  actor: string;
  action: string;
  subject?: string | null;
  reason?: string | null;
  /** Counts and ids that say what changed; stored as JSON. Never a voter's answers. */
  details?: Record<string, unknown> | null;
  now?: Date;
}

/**
 * Appends an entry to the audit trail. Call it in the same transaction as the change it
 * records, so that there is never a change without its entry, nor an entry without its change.
 */
export async function appendAudit(db: Kysely<Database> | Transaction<Database>, entry: AuditEntry): Promise<AuditRow> {
  const now = entry.now ?? new Date();
  const row: AuditRow = {
    id: uuidv7(now.getTime()),
    project_id: entry.projectId,
    at: now.toISOString(),
    actor: entry.actor,
    action: entry.action,
    subject: entry.subject ?? null,
    reason: entry.reason ?? null,
    details: entry.details ? JSON.stringify(entry.details) : null,
  };
  await db.insertInto('audit_log').values(row).execute();
  return row;
}

/** A survey's audit trail, oldest first. */
export async function auditTrail(db: Kysely<Database>, projectId: string): Promise<AuditRow[]> {
  return db.selectFrom('audit_log').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
}

/** The newest entry of a survey's trail: the state of the operators' decisions that a tally or an export reflects. */
export async function latestAudit(db: Kysely<Database>, projectId: string): Promise<AuditRow | undefined> {
  return db.selectFrom('audit_log').selectAll().where('project_id', '=', projectId).orderBy('id', 'desc').limit(1).executeTakeFirst();
}
