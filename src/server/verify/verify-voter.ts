import { createHash, createHmac, randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ServerSurvey } from '../surveys.ts';
import type { ServerConfig } from '../config.ts';
import { clientAddress } from '../client-address.ts';
import { countRequest } from '../rate-limits.repository.ts';
import { sendMail } from '../mail.ts';
import { uuidv7 } from '../ids.ts';
import { signalsSecret } from '../intake/signals-salt.ts';
import {
  CODE_LIFETIME_MS,
  CODE_WINDOW_MS,
  CODES_PER_ADDRESS,
  MAX_WRONG_TRIES,
  verifyWords,
  addressKey,
  isAddress,
  licenceKey,
  maskAddress,
  validNpi,
} from '../../survey/people/verification.ts';
import { codesSince, countWrongTry, insertCode, spendCode } from './codes.repository.ts';
import { signProof } from './verify-token.ts';
import { peopleKey, personByContact } from '../people/people.repository.ts';
import { m } from '../../i18n/messages.ts';
import { requestLanguage } from '../language.ts';
import { localizeSurvey } from '../../survey/config/translations.ts';

// A voter proving an address: who the typed text names, the code mailed to that address, and
// the code checked. Each step returns an outcome; verify-reply.ts says it in HTTP.

/** The person a voter's typed text names: the address to mail, and on a roster the person's secret. */
interface Found {
  email: string;
  secret: string | null;
}

/** A step that did not go on: a code for the API's answer, its status, a sentence for the voter, and when to try again. */
export interface VerifyRefusal {
  kind: 'refused';
  status: number;
  code: string;
  message: string;
  field?: 'address' | 'code';
  retryAfter?: number;
  /** The publication's contact (`mail.reply_to`), for a voter the roster does not know. */
  contact?: string;
}

/** A code went to the address, shown masked. */
interface CodeSent {
  kind: 'sent';
  sentTo: string;
}

/** The right code: the signed proof the ballot carries. */
interface Proven {
  kind: 'proven';
  proof: string;
  sentTo: string;
}

function refusal(status: number, code: string, message: string, extra: Partial<VerifyRefusal> = {}): VerifyRefusal {
  return { kind: 'refused', status, code, message, ...extra };
}

/**
 * The person the voter's text names: on `verify: email` the address itself; on a roster the
 * invited person with that address or that licence number (an NPI must pass its check digit).
 */
async function findVoter(db: Kysely<Database>, config: ServerConfig, survey: ServerSurvey, typed: string): Promise<Found | VerifyRefusal> {
  const text = typed.trim();
  if (!text || text.length > 254) return refusal(400, 'bad_address', 'Type your email address, such as name@example.org.', { field: 'address' });
  if (survey.config.verify === 'email') {
    return isAddress(text)
      ? { email: addressKey(text), secret: null }
      : refusal(400, 'bad_address', 'Type your email address, such as name@example.org.', { field: 'address' });
  }
  const asAddress = isAddress(text) ? addressKey(text) : undefined;
  const licence = asAddress ? '' : licenceKey(text);
  const npi = /^\d{10}$/.test(licence);
  if (npi && !validNpi(licence)) return refusal(400, 'bad_licence', 'That NPI’s check digit is wrong: check the 10 digits.', { field: 'address' });
  // One indexed lookup in the `people` table, by address or by licence number; only people with an address can be mailed a code.
  const match =
    asAddress || licence ? await personByContact(db, survey.config.project_id, asAddress ? { email: asAddress } : { licence }, peopleKey(config)) : undefined;
  if (match) return { email: addressKey(match.person.email as string), secret: match.secret };
  const contact = survey.config.mail.reply_to;
  return refusal(404, 'no_match', `We could not find you among the invited voters: check what you typed${contact ? `, or write to ${contact}` : ''}.`, {
    field: 'address',
    contact,
  });
}

/** A code's stored hash: keyed with the server's secret, so that a copy of the database cannot try the million codes. */
function codeHash(config: Pick<ServerConfig, 'signalsSecret' | 'signalsKeyFile'>, id: string, code: string): string {
  return createHmac('sha256', signalsSecret(config)).update(`${id}\u0000${code}`).digest('base64url');
}

/** The message a code goes out in, in the language of the page that asked for it: the code in the subject and the text. */
function codeMessage(survey: ServerSurvey, code: string, to: string) {
  const title = localizeSurvey(survey.config, requestLanguage()).survey_title ?? survey.slug;
  const [box, ignore] = [m.code_mail_box(), m.code_mail_ignore()];
  const text = `${m.code_mail_first({ title, code })}\n\n${box}\n${ignore}\n`;
  const safeTitle = title.replace(/[&<>"']/g, '');
  return {
    to,
    subject: m.code_mail_subject({ code, title }),
    text,
    html: `<p>${m.code_mail_first({ title: safeTitle, code: `<strong>${code}</strong>` })}</p><p>${box}</p><p>${ignore}</p>`,
  };
}

/**
 * Mails a 6-digit code to the address the voter's text names, valid 15 minutes: at most 3 to an
 * address and VERIFY_RATE_LIMIT_MAX to a client in 10 minutes (none of these with RATE_LIMIT_MAX=0).
 */
export async function sendCode(
  db: Kysely<Database>,
  config: ServerConfig,
  survey: ServerSurvey,
  request: Request,
  connection: string | undefined,
  typed: string,
  now: Date,
): Promise<CodeSent | VerifyRefusal> {
  const limits = config.rateLimitMax !== 0;
  if (limits && config.verifyRateLimitMax > 0) {
    const client = createHash('sha256')
      .update(`verify:${clientAddress(request, connection, config)}`)
      .digest('hex');
    const { hits, resetAt } = await countRequest(db, client, now, CODE_WINDOW_MS);
    if (hits > config.verifyRateLimitMax)
      return refusal(429, 'rate_limited', 'Too many codes asked for from this address. Please try again later.', {
        retryAfter: Math.max(1, Math.ceil((resetAt - now.getTime()) / 1000)),
      });
  }
  const found = await findVoter(db, config, survey, typed);
  if ('kind' in found) return found;
  const recent = await codesSince(db, survey.config.project_id, found.email, new Date(now.getTime() - CODE_WINDOW_MS));
  if (limits && recent.length >= CODES_PER_ADDRESS) {
    const oldest = recent[recent.length - 1];
    return refusal(429, 'too_many_codes', 'Three codes have already been sent to this address in 10 minutes: use the latest one, or ask again later.', {
      retryAfter: Math.max(1, Math.ceil((Date.parse(oldest.created_at) + CODE_WINDOW_MS - now.getTime()) / 1000)),
    });
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const id = uuidv7(now.getTime());
  await insertCode(db, {
    id,
    project_id: survey.config.project_id,
    email: found.email,
    secret: found.secret,
    code_hash: codeHash(config, id, code),
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + CODE_LIFETIME_MS).toISOString(),
  });
  const mailed = await sendMail(survey, codeMessage(survey, code, found.email));
  if (mailed.status !== 'sent')
    return refusal(503, 'mail_failed', 'The code could not be sent just now. Please try again in a few minutes.', { retryAfter: 60 });
  return { kind: 'sent', sentTo: maskAddress(found.email) };
}

/**
 * Checks a code typed for the address the voter's text names: the right, unexpired, unused code
 * gives a signed proof; a wrong one counts against the latest code, and after the 5th every
 * code of the address is refused until a new one is sent.
 */
export async function checkCode(
  db: Kysely<Database>,
  config: ServerConfig,
  survey: ServerSurvey,
  typed: string,
  typedCode: string,
  now: Date,
): Promise<Proven | VerifyRefusal> {
  const found = await findVoter(db, config, survey, typed);
  if ('kind' in found) return found;
  const code = typedCode.replace(/\s/g, '');
  const recent = await codesSince(db, survey.config.project_id, found.email, new Date(now.getTime() - CODE_LIFETIME_MS - CODE_WINDOW_MS));
  const latest = recent[0];
  if (!latest) return refusal(410, 'code_expired', verifyWords().expired, { field: 'code' });
  if (latest.wrong_tries >= MAX_WRONG_TRIES) return refusal(403, 'too_many_tries', verifyWords().tooManyTries, { field: 'code' });
  const match = /^\d{6}$/.test(code) ? recent.find((row) => row.code_hash === codeHash(config, row.id, code)) : undefined;
  if (match && match.used_at === null && match.expires_at > now.toISOString() && (await spendCode(db, match.id, now))) {
    return {
      kind: 'proven',
      proof: signProof({ projectId: survey.config.project_id, email: found.email, secret: match.secret }, now),
      sentTo: maskAddress(found.email),
    };
  }
  if (match) return refusal(410, 'code_expired', verifyWords().expired, { field: 'code' });
  const tries = await countWrongTry(db, latest.id);
  if (tries >= MAX_WRONG_TRIES) return refusal(403, 'too_many_tries', verifyWords().tooManyTries, { field: 'code' });
  return refusal(422, 'wrong_code', verifyWords().wrongCode, { field: 'code' });
}
