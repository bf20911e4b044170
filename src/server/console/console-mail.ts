import type { Operator } from '../../survey/operators/operators.struct.ts';
import { escapeHtml } from '../html-page.ts';
import { sendMail } from '../mail.ts';
import type { IssuedLink } from './enrolment.ts';

/** The console's messages go as a survey's would, under this name: the file transport writes them to DATA_DIR/mail/console/. */
const CONSOLE_MAIL = { slug: 'console', config: { mail: { receipt: false } } } as const;

/** Mails an operator their enrolment link, at the address in operators.yaml; true when the mail server (or the file) took it. The link goes nowhere else. */
export async function mailEnrolmentLink(operator: Operator, link: IssuedLink): Promise<boolean> {
  const until = new Date(link.expiresAt).toISOString().slice(11, 16);
  const text = [
    `Hello ${operator.name},`,
    '',
    `Open this link to create a passkey for the Peervote console. It works once, within 15 minutes (until ${until} UTC):`,
    '',
    link.url,
    '',
    'Your browser or phone will ask you to confirm with your fingerprint, face or device PIN; the passkey then signs you in.',
    'If you did not ask for this link, ignore this message: nothing changes without it.',
    '',
  ].join('\n');
  const html = `<p>Hello ${escapeHtml(operator.name)},</p><p>Open this link to create a passkey for the Peervote console. It works once, within 15 minutes (until ${until} UTC):</p><p><a href="${escapeHtml(link.url)}">${escapeHtml(link.url)}</a></p><p>Your browser or phone will ask you to confirm with your fingerprint, face or device PIN; the passkey then signs you in.</p><p>If you did not ask for this link, ignore this message: nothing changes without it.</p>`;
  const outcome = await sendMail(CONSOLE_MAIL, { to: operator.email, subject: 'Your link to the Peervote console', text, html });
  return outcome.status === 'sent';
}
