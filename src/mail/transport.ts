import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SendMailOptions, Transporter } from 'nodemailer';
import type { SurveyConfig } from '../survey/config/config.struct.ts';

/**
 * The sender of every message when neither MAIL_FROM nor the survey's `mail.from` names one:
 * only ever seen in the `.eml` files of the file transport, since SMTP_URL requires MAIL_FROM.
 * @public
 */
export const DEFAULT_SENDER = 'Peervote <no-reply@peervote.invalid>';

/** How many SMTP connections the pool keeps open by default: also the most messages in flight at once. */
export const DEFAULT_POOL_SIZE = 5;

/** The waits before each new try of a message a server refuses for now (4xx): 5 tries within about two and a half minutes. */
export const DEFAULT_RETRY_WAITS_MS: readonly number[] = [5_000, 15_000, 40_000, 90_000];

/** Where messages go: over SMTP (a pooled connection to SMTP_URL), else as `.eml` files under `mailDir/<slug>/`. */
export interface MailSettings {
  /** `smtp://user:pass@host:587` or `smtps://…`; unset writes files instead. */
  readonly smtpUrl?: string;
  /** The sender (MAIL_FROM); a survey's `mail.from` overrides it. */
  readonly from?: string;
  /** DATA_DIR/mail: the file transport's folder. */
  readonly mailDir: string;
  /** SMTP connections in the pool. */
  readonly poolSize: number;
  /** The waits before each new try of a message refused for now (MAIL_RETRY_WAITS): one more try than waits. */
  readonly retryWaitsMs: readonly number[];
}

/** The survey a message is sent for: its folder name (the file transport's subfolder) and its `mail:` block. */
export interface MailSurvey {
  readonly slug: string;
  readonly config: Pick<SurveyConfig, 'mail'>;
}

/** One message: a single recipient, its text and HTML bodies (sent as multipart/alternative) and extra headers. */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** `<…@domain>`, chosen before sending (newMessageId) so that it can be recorded before the message leaves. */
  readonly messageId?: string;
  /** The envelope sender (Return-Path) when it differs from From, e.g. a VERP address. */
  readonly returnPath?: string;
}

/**
 * What became of one message: `sent` (accepted by the SMTP server, or written to its file);
 * `rejected` with the server's code (`permanent` for 5xx: the address will not take mail; else try
 * again later); `unreachable` when no server answered or it refused the connection or the login,
 * which says nothing about the recipient.
 */
export type MailOutcome =
  | { readonly status: 'sent'; readonly messageId: string; readonly response: string }
  | { readonly status: 'rejected'; readonly messageId: string; readonly permanent: boolean; readonly code: number; readonly response: string }
  | { readonly status: 'unreachable'; readonly messageId: string; readonly reason: string };

/** Sends messages for surveys; `close` ends the pool's connections. */
export interface MailTransport {
  /** Where messages go, in words with no secret: "SMTP host:port" or the file transport's folder. */
  readonly description: string;
  send(survey: MailSurvey, message: MailMessage): Promise<MailOutcome>;
  close(): void;
}

/**
 * The sender a survey's messages carry: its `mail.from`, else MAIL_FROM, else the stated default.
 * @public
 */
export function senderOf(survey: MailSurvey, settings: Pick<MailSettings, 'from'>): string {
  return survey.config.mail?.from ?? settings.from ?? DEFAULT_SENDER;
}

/**
 * A fresh Message-ID (`<random@domain>`) in the sender's domain, to record before the message is handed over.
 * @public
 */
export function newMessageId(sender: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(sender)?.[1] ?? 'peervote.invalid';
  return `<${randomPart()}@${domain}>`;
}

/** Random bytes for 256 Message-IDs at a time: one call to the system's generator, not one a message. */
let pool = Buffer.alloc(0);
let used = 0;

/** 128 fresh random bits in base64url (22 characters): never two alike, never guessable from another. */
function randomPart(): string {
  if (used === pool.length) {
    pool = randomBytes(16 * 256);
    used = 0;
  }
  used += 16;
  return pool.toString('base64url', used - 16, used);
}

interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
  command?: string;
}

/** Turns a nodemailer failure into an outcome: a reply code decides, a connection error means unreachable. */
function failure(error: SmtpError, messageId: string): MailOutcome {
  const code = error.responseCode;
  // A refused login is the server's state, not the recipient's; a 4xx anywhere is worth another try.
  if (code && error.code !== 'EAUTH') {
    return { status: 'rejected', messageId, permanent: code >= 500, code, response: (error.response ?? error.message).slice(0, 300) };
  }
  return { status: 'unreachable', messageId, reason: `${error.code ?? 'error'}: ${error.message}`.slice(0, 300) };
}

/** Where an SMTP URL points, without its user or password. */
function smtpPlace(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  return `${url.protocol.replace(':', '').toUpperCase()} ${url.hostname}:${url.port || (url.protocol === 'smtps:' ? 465 : 587)}`;
}

/** Where the settings send messages, in words with no secret (MailTransport.description). */
export function transportPlace(settings: Pick<MailSettings, 'smtpUrl' | 'mailDir'>): string {
  return settings.smtpUrl ? smtpPlace(settings.smtpUrl) : `files under ${settings.mailDir}`;
}

/**
 * The mail transport: nodemailer over a pool of SMTP connections when `smtpUrl` is set, else a
 * writer of one RFC 5322 `.eml` file a message under `mailDir/<slug>/`, so that a person can open
 * what would have gone and nothing needs a server.
 */
export function createMailTransport(settings: MailSettings): MailTransport {
  // nodemailer (and the network modules it loads) comes in with the transport, not with this
  // module: a server or a command that sends nothing starts without it. It is loaded now rather than
  // with the first message, so that a command's bundle (dist/cli) rebuilt meanwhile cannot miss it.
  const transports = import('nodemailer').then(({ default: nodemailer }) => ({
    smtp: settings.smtpUrl
      ? nodemailer.createTransport({ url: settings.smtpUrl, pool: true, maxConnections: settings.poolSize, maxMessages: Number.POSITIVE_INFINITY })
      : undefined,
    composer: nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' }),
  }));
  // A failure to load is each send's to report: no unhandled rejection when nothing is sent.
  transports.catch(() => undefined);
  const made = new Set<string>();

  async function toFile(composer: Transporter, survey: MailSurvey, options: SendMailOptions, messageId: string): Promise<MailOutcome> {
    const info = (await composer.sendMail(options)) as unknown as { message: Buffer };
    const folder = path.join(settings.mailDir, survey.slug);
    if (!made.has(folder)) await mkdir(folder, { recursive: true }), made.add(folder);
    // The name carries a time and the Message-ID's random part, never the address.
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${messageId.slice(1, messageId.indexOf('@'))}.eml`;
    const file = path.join(folder, name);
    await writeFile(`${file}.part`, info.message);
    await rename(`${file}.part`, file);
    return { status: 'sent', messageId, response: `written ${name}` };
  }

  return {
    description: transportPlace(settings),
    async send(survey, message) {
      const from = senderOf(survey, settings);
      const messageId = message.messageId ?? newMessageId(from);
      const options: SendMailOptions = {
        from,
        to: message.to,
        replyTo: survey.config.mail?.reply_to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        headers: { ...message.headers },
        messageId,
        envelope: message.returnPath ? { from: message.returnPath, to: message.to } : undefined,
      };
      const { smtp, composer } = await transports;
      if (!smtp) return toFile(composer, survey, options, messageId);
      try {
        const info = await smtp.sendMail(options);
        return { status: 'sent', messageId, response: String(info.response ?? '') };
      } catch (error) {
        return failure(error as SmtpError, messageId);
      }
    },
    close() {
      void transports.then(
        ({ smtp, composer }) => {
          smtp?.close();
          composer.close();
        },
        () => undefined,
      );
    },
  };
}
