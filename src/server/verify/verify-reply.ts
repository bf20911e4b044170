import { serverConfig } from '../config.ts';
import { database } from '../db/database.ts';
import { escapeHtml, plainPage, wantsPage } from '../html-page.ts';
import { json, refuse, unknownSurvey } from '../http.ts';
import { requestTime } from '../request-hooks.ts';
import { findSurvey, type ServerSurvey } from '../surveys.ts';
import { readLimited, parseMultipart } from '../intake/multipart.ts';
import { isExpired } from '../../survey/people/link.ts';
import { verifyWords } from '../../survey/people/verification.ts';
import { nulProblems } from '../../survey/ballots/control-characters.ts';
import { checkCode, sendCode, type VerifyRefusal } from './verify-voter.ts';
import { PROOF_COOKIE } from './verify-token.ts';

// The verification steps in HTTP (`POST /api/survey/verify/{projectId}` and `…/code`): JSON for
// the page's scripts, or plain pages of forms for a browser without JavaScript.

/** The most a verification request's body may hold: two short fields. */
const BODY_LIMIT = 4096;

/** The fields of a verification form: url-encoded or multipart; undefined when unreadable. */
async function readFields(request: Request): Promise<URLSearchParams | FormData | undefined> {
  const type = request.headers.get('content-type') ?? '';
  const body = await readLimited(request, BODY_LIMIT);
  if (body === 'too-large') return undefined;
  if (/^application\/x-www-form-urlencoded/i.test(type)) return new URLSearchParams(new TextDecoder().decode(body));
  if (/^multipart\/form-data\s*;/i.test(type)) {
    const form = await parseMultipart(body, type);
    return form instanceof FormData ? form : undefined;
  }
  return undefined;
}

function text(fields: URLSearchParams | FormData, name: string): string {
  const value = fields.get(name);
  return typeof value === 'string' ? value : '';
}

/** The address form: what the voter types to be sent a code. */
function addressForm(survey: ServerSurvey, typed = ''): string {
  const VERIFY_WORDS = verifyWords();
  const label = survey.config.verify === 'roster' ? VERIFY_WORDS.rosterAsk : VERIFY_WORDS.emailAsk;
  const type = survey.config.verify === 'roster' ? 'text' : 'email';
  return `<form method="post" action="/api/survey/verify/${encodeURIComponent(survey.config.project_id)}"><label for="address">${escapeHtml(label)}</label><input id="address" name="address" type="${type}" autocomplete="email" required value="${escapeHtml(typed)}"><button type="submit">${VERIFY_WORDS.send}</button></form>`;
}

/** The code form, with the typed address carried along in the body (never in the address bar). */
function codeForm(survey: ServerSurvey, typed: string): string {
  const action = `/api/survey/verify/${encodeURIComponent(survey.config.project_id)}/code`;
  const VERIFY_WORDS = verifyWords();
  return `<form method="post" action="${action}"><input type="hidden" name="address" value="${escapeHtml(typed)}"><label for="code">${VERIFY_WORDS.code}</label><input id="code" name="code" type="text" inputmode="numeric" pattern="[0-9 ]*" maxlength="7" autocomplete="one-time-code" required autofocus><button type="submit">${VERIFY_WORDS.check}</button></form>`;
}

/** A refusal as JSON in the API's one error shape, with Retry-After when waiting helps. */
function refusalJson(outcome: VerifyRefusal): Response {
  const headers: Record<string, string> = outcome.retryAfter ? { 'Retry-After': String(outcome.retryAfter) } : {};
  const response = refuse(outcome.status, outcome.code, outcome.message, outcome.field ? [{ path: outcome.field, message: outcome.message }] : [], headers);
  if (!outcome.contact) return response;
  return json(
    outcome.status,
    { error: outcome.code, message: outcome.message, problems: [{ path: 'address', message: outcome.message }], contact: outcome.contact },
    headers,
  );
}

/** The page for a refusal: the sentence, announced, and the form to try again. */
function refusalPage(survey: ServerSurvey, outcome: VerifyRefusal, typed: string): Response {
  const again =
    outcome.field === 'code' && outcome.code !== 'too_many_tries' && outcome.code !== 'code_expired' ? codeForm(survey, typed) : addressForm(survey, typed);
  return plainPage({
    status: outcome.status,
    site: survey.config.survey_title ?? 'Survey',
    title: 'There is a problem',
    text: outcome.message,
    html: again,
    headers: outcome.retryAfter ? { 'Retry-After': String(outcome.retryAfter) } : undefined,
    form: true,
  });
}

/** The survey a verification step is for, or the answer that stops it: unknown, not verifying, closed, unreadable. */
async function opening(request: Request, projectId: string, now: Date): Promise<{ survey: ServerSurvey; fields: URLSearchParams | FormData } | Response> {
  const survey = findSurvey(projectId);
  if (!survey) return unknownSurvey();
  if (survey.config.verify === 'none') return refuse(404, 'verification_off', 'This survey does not verify voters: send the ballot as it is.');
  if (isExpired(survey.config, now.getTime())) return refuse(410, 'expired', 'Survey form has expired!');
  const fields = await readFields(request);
  if (!fields) return refuse(400, 'malformed_body', 'Send the fields as a form (application/x-www-form-urlencoded or multipart/form-data) of at most 4 KB.');
  // The text rule of every boundary (docs/api.md, "Text"): no address or code is mailed, stored or compared with a NUL in it.
  const nul = nulProblems([...fields.entries()].flatMap(([name, value]) => (typeof value === 'string' ? [[name, value] as const] : [])));
  if (nul.length) return refuse(400, 'invalid_text', 'A field holds a NUL character (U+0000), which no text may hold.', nul);
  return { survey, fields };
}

/** Answers `POST /api/survey/verify/{projectId}`: 202 `{ sent_to }` once a code is mailed, or why not. */
export async function sendCodeReply(request: Request, connection: string | undefined, projectId: string): Promise<Response> {
  const now = requestTime(request);
  const opened = await opening(request, projectId, now);
  if (opened instanceof Response) return opened;
  const { survey, fields } = opened;
  const typed = text(fields, 'address');
  const { db } = await database();
  const outcome = await sendCode(db, serverConfig(), survey, request, connection, typed, now);
  const asPage = wantsPage(request);
  if (outcome.kind === 'refused') return asPage ? refusalPage(survey, outcome, typed) : refusalJson(outcome);
  if (!asPage) return json(202, { sent_to: outcome.sentTo });
  return plainPage({
    status: 200,
    site: survey.config.survey_title ?? 'Survey',
    title: 'Check your mail',
    text: `We sent a code to ${outcome.sentTo}. It is valid for 15 minutes.`,
    html: `${codeForm(survey, typed)}<p>No message? Look in your spam folder, or ask again:</p>${addressForm(survey, typed)}`,
    form: true,
    calm: true,
  });
}

/**
 * Answers `POST /api/survey/verify/{projectId}/code`: 200 `{ proof, sent_to }` for the right
 * code; a browser without JavaScript gets the proof as a cookie for the survey API and goes
 * back to the ballot.
 */
export async function checkCodeReply(request: Request, projectId: string): Promise<Response> {
  const now = requestTime(request);
  const opened = await opening(request, projectId, now);
  if (opened instanceof Response) return opened;
  const { survey, fields } = opened;
  const typed = text(fields, 'address');
  const { db } = await database();
  const outcome = await checkCode(db, serverConfig(), survey, typed, text(fields, 'code'), now);
  const asPage = wantsPage(request);
  if (outcome.kind === 'refused') return asPage ? refusalPage(survey, outcome, typed) : refusalJson(outcome);
  if (!asPage) return json(200, { proof: outcome.proof, sent_to: outcome.sentTo });
  const secure = new URL(request.url).protocol === 'https:' ? '; Secure' : '';
  const origin = request.headers.get('origin');
  const base = origin && origin !== 'null' ? origin : new URL(request.url).origin;
  return new Response(null, {
    status: 303,
    headers: {
      Location: `${base}/${encodeURIComponent(survey.slug)}/#ballot`,
      'Set-Cookie': `${PROOF_COOKIE}=${outcome.proof}; Path=/api/survey; Max-Age=86400; HttpOnly; SameSite=Lax${secure}`,
      'Cache-Control': 'no-store',
    },
  });
}
