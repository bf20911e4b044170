import { createMailTransport, type MailMessage, type MailOutcome, type MailSurvey, type MailTransport } from '../mail/transport.ts';
import { serverConfig } from './config.ts';

let transport: MailTransport | undefined;

/** This process's mail transport, made on first use from the environment (SMTP_URL and MAIL_FROM, else files under DATA_DIR/mail). */
export function mailTransport(): MailTransport {
  transport ??= createMailTransport(serverConfig().mail);
  return transport;
}

/**
 * Sends one message for a survey through this process's transport and says what became of it
 * (`sent`, `rejected` with the SMTP code, or `unreachable`); it never throws for a refusal.
 * @public
 */
export function sendMail(survey: MailSurvey, message: MailMessage): Promise<MailOutcome> {
  return mailTransport().send(survey, message);
}
