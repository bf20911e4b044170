import type { MailSettings } from '../../mail/transport.ts';
import { newMessageId, senderOf } from '../../mail/transport.ts';
import { rosterAddress, rosterName } from '../../survey/voter.ts';
import { personOf } from '../../survey/secrets.ts';
import type { BallotTarget } from '../intake/ballot-request.ts';
import { recipientKey } from './mail.repository.ts';
import type { ReceiptPayload } from './outbox.ts';

/**
 * The receipt message to queue with a ballot, or undefined: only with `mail.receipt: true`, and
 * only to an address the API knows is the voter's: a personal link's person's address on the
 * roster, whatever address the ballot typed, or the address a public voter proved with a mailed
 * code (`verify: email`). An address typed on a public ballot is never mailed: the API must not
 * be a relay.
 */
export function receiptMail(request: Request, target: BallotTarget, code: string, now: Date, settings: Pick<MailSettings, 'from'>) {
  const { survey, secret } = target;
  if (!survey.config.mail.receipt) return undefined;
  const person = secret ? personOf(survey.prepopulation, secret) : undefined;
  const address = person ? rosterAddress(person, survey.config) : secret ? undefined : target.verifiedEmail;
  if (!address) return undefined;
  const site = (process.env.PEERVOTE_BASE_URL ?? new URL(request.url).origin).replace(/\/+$/, '');
  const payload: ReceiptPayload = {
    // A proven address carries no name: the greeting then says "Dear voter".
    name: (person ? rosterName(person, survey.config) : '') || 'voter',
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
