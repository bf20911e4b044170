import type { MailSettings } from '../../mail/transport.ts';
import { newMessageId, senderOf } from '../../mail/transport.ts';
import { rosterAddress, rosterName } from '../../survey/people/voter.ts';
import type { PersonValues } from '../../survey/config/config.struct.ts';
import { personOfSecret } from '../surveys.ts';
import type { BallotRow } from '../db/tables/ballots.table.ts';
import type { NewMailMessage } from '../db/tables/mail-messages.table.ts';
import type { ServerSurvey } from '../surveys.ts';
import type { BallotTarget } from '../intake/ballot-request.ts';
import { recipientKey } from './mail.repository.ts';
import { requestLanguage } from '../language.ts';
import { surveyPath } from '../../survey/config/translations.ts';

/** What a queued receipt carries: never the ballot's answers. */
export interface ReceiptPayload {
  name: string;
  receipt: string;
  receivedAt: string;
  /** The receipt page's address (`/{slug}/receipt` on the site). */
  url: string;
}

/** The address a receipt goes to: the personal link's person's address on the roster, else the address a public voter proved. */
function receiptAddress(survey: ServerSurvey, person: PersonValues | undefined, secret: string | null | undefined, verifiedEmail: string | null | undefined) {
  return { person, address: person ? rosterAddress(person, survey.config) : secret ? undefined : (verifiedEmail ?? undefined) };
}

/**
 * The receipt page's address when a ballot is owed a receipt by mail, stored on the ballot's own
 * row (`receipt_mail_due`), or undefined: only with `mail.receipt: true`, and only to an address
 * the API knows is the voter's: a personal link's person's address on the roster, whatever
 * address the ballot typed, or the address a public voter proved with a mailed code
 * (`verify: email`). An address typed on a public ballot is never mailed: the API must not be a
 * relay.
 */
export function receiptDue(request: Request, target: BallotTarget): string | undefined {
  const { survey, secret } = target;
  if (!survey.config.mail.receipt || !receiptAddress(survey, target.person, secret, target.verifiedEmail).address) return undefined;
  const site = (process.env.PEERVOTE_BASE_URL ?? new URL(request.url).origin).replace(/\/+$/, '');
  // The receipt page in the language of the page that sent the ballot: the mail follows it (outbox.ts).
  const languages: readonly string[] = survey.config.languages;
  const lang = languages.includes(requestLanguage()) ? requestLanguage() : languages[0]!;
  return `${site}${surveyPath({ slug: survey.slug, languages }, lang, 'receipt')}`;
}

/**
 * The queued message of a ballot's owed receipt (receipt code, time received, the receipt page's
 * link; never its answers), to the address the roster or the proof gives now; undefined when
 * there is none any more (the person left the roster) or the ballot owes no receipt.
 */
export async function receiptMessage(
  survey: ServerSurvey,
  ballot: Pick<BallotRow, 'project_id' | 'personal_secret' | 'verified_email' | 'receipt' | 'created_at' | 'receipt_mail_due'>,
  settings: Pick<MailSettings, 'from'>,
): Promise<NewMailMessage | undefined> {
  const found = await personOfSecret(ballot.project_id, ballot.personal_secret);
  const { person, address } = receiptAddress(survey, found, ballot.personal_secret, ballot.verified_email);
  if (!address || !ballot.receipt_mail_due) return undefined;
  const payload: ReceiptPayload = {
    // A proven address carries no name: the greeting then says "Dear voter".
    name: (person ? rosterName(person, survey.config) : '') || 'voter',
    receipt: ballot.receipt ?? '',
    receivedAt: ballot.created_at,
    url: ballot.receipt_mail_due,
  };
  return {
    message_id: newMessageId(senderOf(survey, settings)),
    project_id: ballot.project_id,
    kind: 'receipt',
    email_key: recipientKey(address),
    recipient: address,
    status: 'queued',
    attempts: 0,
    created_at: ballot.created_at,
    sent_at: null,
    detail: null,
    payload: JSON.stringify(payload),
  };
}
