import type { Insertable, Selectable } from 'kysely';

/** What a message is: the operator's invitation or reminder, or a voter's receipt. */
export type MailKind = 'invitation' | 'reminder' | 'receipt';

/**
 * A message's fate: `queued` (a receipt waiting for the outbox), `sending` (handed to SMTP, no answer
 * yet), `sent`, `unknown` (it was sending when the process died: it may or may not have gone),
 * `failed` (temporary refusals ran out), `bounced` (a 5xx, then or in a later report), `complained`.
 */
export type MailStatus = 'queued' | 'sending' | 'sent' | 'unknown' | 'failed' | 'bounced' | 'complained';

/**
 * `mail_messages`: one row a message Peervote sent or will send, keyed by its Message-ID, which is
 * recorded before the message is handed over, so that a report that arrives later finds it.
 */
export interface MailMessagesTable {
  message_id: string;
  project_id: string;
  kind: MailKind;
  /** The recipient's address in lower case: how a message finds its person. */
  email_key: string;
  recipient: string;
  status: MailStatus;
  attempts: number;
  created_at: string;
  sent_at: string | null;
  /** The last SMTP answer or report, in the server's words. */
  detail: string | null;
  /** A receipt's data as JSON (its code, when it was received, the link), for the outbox. */
  payload: string | null;
  /** The console's send run (mail_runs) that sent it, if one did. */
  run_id: string | null;
  /** A receipt's outbox while it sends it (a process of the API), and until when its claim holds. */
  claimed_by: string | null;
  claim_expires_at: string | null;
}

/** A stored message. */
export type MailMessageRow = Selectable<MailMessagesTable>;
/** A message to store. */
export type NewMailMessage = Insertable<MailMessagesTable>;
