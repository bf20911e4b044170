import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { EnrolmentVia } from '../db/tables/console-enrolments.table.ts';
import type { Operator } from '../../survey/operators/operators.struct.ts';
import { appendAudit, type AuditEntry } from '../db/audit.repository.ts';
import { secretHash } from '../tokens.ts';
import { credentialsOf } from './passkeys.repository.ts';
import { enrolmentByHash, expireUnusedEnrolments, insertEnrolment } from './enrolments.repository.ts';
import { endSessions } from './sessions.ts';

// Enrolment links: the one way to an operator's first passkey, and to a new one when a passkey
// is lost. A link is a random token of 256 bits (only its hash is stored), works once, and dies
// after 15 minutes or when a newer link is made for the same operator.

/** How long an enrolment link works. */
const ENROLMENT_LIFETIME_MS = 15 * 60 * 1000;

/** The token's shape in a link: 32 random bytes in base64url. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The audit trail's project for what concerns the console's operators rather than one survey. */
export const CONSOLE_AUDIT_PROJECT = '*';

/** Who made a link, and how, for its row and the audit trail. */
export interface LinkIssuer {
  readonly via: EnrolmentVia;
  /** The operator's own address (by mail), an owner's, or `cli:<user>`. */
  readonly issuedBy: string;
  /** For the audit trail (not for a link an operator asked for by mail, which the sign-in log keeps): who, and the facts of the act. */
  readonly audit?: Pick<AuditEntry, 'actor' | 'via' | 'actorEmail' | 'role' | 'sessionId'> & { readonly reason?: string };
}

/** A link made: its address (to print or mail once; it is stored nowhere), when it dies, and the sessions it ended. */
export interface IssuedLink {
  readonly url: string;
  readonly expiresAt: string;
  readonly passkeys: number;
  readonly endedSessions: number;
}

/**
 * Makes an enrolment link for an operator, in one transaction: earlier unused links die; an
 * operator who has passkeys already (one lost) has every session ended, since the link is a
 * way in that bypasses them; and, when asked, the act goes to the audit trail.
 */
export async function issueEnrolmentLink(db: Kysely<Database>, operator: Operator, issuer: LinkIssuer, baseUrl: string, now: Date): Promise<IssuedLink> {
  const token = randomBytes(32).toString('base64url');
  const at = now.toISOString();
  const expiresAt = new Date(now.getTime() + ENROLMENT_LIFETIME_MS).toISOString();
  return db.transaction().execute(async (trx) => {
    const passkeys = (await credentialsOf(trx, operator.key)).length;
    const endedSessions = passkeys > 0 ? await endSessions(trx, operator.key, 'new_enrolment_link', now) : 0;
    await expireUnusedEnrolments(trx, operator.key, at);
    await insertEnrolment(trx, {
      token_hash: secretHash(token),
      operator: operator.key,
      created_at: at,
      expires_at: expiresAt,
      used_at: null,
      via: issuer.via,
      issued_by: issuer.issuedBy,
    });
    if (issuer.audit) {
      await appendAudit(trx, {
        projectId: CONSOLE_AUDIT_PROJECT,
        ...issuer.audit,
        action: 'operators link',
        subject: operator.key,
        reason: issuer.audit.reason ?? null,
        details: { passkeys, ended_sessions: endedSessions, expires_at: expiresAt },
        now,
      });
    }
    return { url: `${baseUrl.replace(/\/+$/, '')}/console/enrol/${token}`, expiresAt, passkeys, endedSessions };
  });
}

/** What an enrolment link's token finds: a link that works (for whom, until when), or why it does not. */
export type EnrolmentLink =
  | { readonly state: 'valid'; readonly operator: string; readonly tokenHash: string; readonly expiresAt: string }
  | { readonly state: 'used' | 'expired' | 'unknown' };

/** Where a link's token stands at `now`; it changes nothing, so a mail scanner opening the link spends nothing. */
export async function enrolmentLink(db: Kysely<Database>, token: string, now: Date): Promise<EnrolmentLink> {
  if (!TOKEN.test(token)) return { state: 'unknown' };
  const tokenHash = secretHash(token);
  const row = await enrolmentByHash(db, tokenHash);
  if (!row) return { state: 'unknown' };
  if (row.used_at) return { state: 'used' };
  if (Date.parse(row.expires_at) <= now.getTime()) return { state: 'expired' };
  return { state: 'valid', operator: row.operator, tokenHash, expiresAt: row.expires_at };
}
