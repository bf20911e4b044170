import type { Insertable, Selectable } from 'kysely';

/**
 * `mail_recipients`: one row a person of a survey's roster that Peervote has mailed: their
 * unsubscribe token (an HMAC of survey and address, never the personal link's secret) and what
 * ended their mail, if anything: an unsubscribe, a bounce or a complaint.
 */
export interface MailRecipientsTable {
  project_id: string;
  email_key: string;
  unsubscribe_token: string;
  unsubscribed_at: string | null;
  bounced_at: string | null;
  complained_at: string | null;
  detail: string | null;
}

/** A stored recipient. */
export type MailRecipientRow = Selectable<MailRecipientsTable>;
/** A recipient to store. */
export type NewMailRecipient = Insertable<MailRecipientsTable>;
