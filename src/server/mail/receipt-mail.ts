import type { MailSettings } from '../../mail/transport.ts';
import { newMessageId, senderOf } from '../../mail/transport.ts';
import { rosterAddress, rosterName } from '../../survey/voter.ts';
import { personOf } from '../../survey/secrets.ts';
import type { BallotTarget } from '../intake/ballot-request.ts';
import { recipientKey } from './mail.repository.ts';
import type { ReceiptPayload } from './outbox.ts';

/**
 * The receipt message to queue with a ballot, or undefined: only with `mail.receipt: true`, only
 * for a personal link whose person has an address on the roster, and always to that roster
 * address, whatever address the ballot typed (the API must never mail an address a stranger typed).
 */
export function receiptMail(request: Request, target: BallotTarget, code: string, now: Date, settings: Pick<MailSettings, 'from'>) {
  const { survey, secret } = target;
  if (!survey.config.mail.receipt || !secret) return undefined;
  const person = personOf(survey.prepopulation, secret);
  const address = person ? rosterAddress(person, survey.config) : undefined;
  if (!person || !address) return undefined;
  const site = (process.env.PEERVOTE_BASE_URL ?? new URL(request.url).origin).replace(/\/+$/, '');
  const payload: ReceiptPayload = {
    name: rosterName(person, survey.config),
    receipt: code,
    receivedAt: now.toISOString(),
    url: `${site}/${survey.slug}/receipt`,
  };
  return {
    message_id: newMessageId(senderOf(survey, settings)),
    email_key: recipientKey(address),
    recipient: address,
    created_at: now.toISOString(),
    payload: JSON.stringify(payload),
  };
}
