import type { MailHistory } from './delivery.repository.ts';

/** Where one invited person's mail stands, as `deliveries` prints it. */
type DeliveryStatus = 'not_sent' | 'sent' | 'unknown' | 'failed' | 'bounced' | 'complained' | 'unsubscribed';

/** Every status, in the order summaries list them. */
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['not_sent', 'sent', 'unknown', 'failed', 'bounced', 'complained', 'unsubscribed'];

/** One person's line: their status, counts of invitations and reminders, the last time mail left for them, the last word about it. */
export interface Delivery {
  status: DeliveryStatus;
  invitations: number;
  reminders: number;
  lastSentAt: string;
  detail: string;
  /** The state of their invitation alone (what decides whether invitations and reminders go). */
  invitation: 'none' | 'sent' | 'unknown' | 'failed' | 'bounced' | 'complained';
}

/**
 * A person's status from their history: what ended their mail first (unsubscribed, complained,
 * bounced), else the fate of the last invitation or reminder (a message still `sending` is `unknown`).
 */
export function deliveryOf(history: MailHistory | undefined): Delivery {
  const messages = history?.messages ?? [];
  const recipient = history?.recipient;
  const invitations = messages.filter((message) => message.kind === 'invitation');
  const counted = (status: string) => status !== 'failed';
  const last = messages.at(-1);
  const lastInvitation = invitations.findLast((message) => message.status !== 'failed') ?? invitations.at(-1);
  const fate = (status: string | undefined) =>
    status === undefined ? 'none' : status === 'sending' || status === 'unknown' ? 'unknown' : (status as Delivery['invitation']);
  let status: DeliveryStatus;
  if (recipient?.unsubscribed_at) status = 'unsubscribed';
  else if (recipient?.complained_at) status = 'complained';
  else if (recipient?.bounced_at) status = 'bounced';
  else if (!last) status = 'not_sent';
  else status = fate(last.status) as DeliveryStatus;
  const sentTimes = messages.map((message) => message.sent_at ?? (message.status === 'unknown' ? message.created_at : null)).filter(Boolean) as string[];
  return {
    status,
    invitations: invitations.filter((message) => counted(message.status)).length,
    reminders: messages.filter((message) => message.kind === 'reminder' && counted(message.status)).length,
    lastSentAt: sentTimes.sort().at(-1) ?? '',
    detail: (recipient?.unsubscribed_at ? `unsubscribed ${recipient.unsubscribed_at}` : (recipient?.detail ?? last?.detail)) ?? '',
    invitation: fate(lastInvitation?.status),
  };
}
