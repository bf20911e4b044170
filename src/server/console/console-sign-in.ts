import type { APIContext } from 'astro';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { database } from '../db/database.ts';
import { json, refuse } from '../http.ts';
import { appendAudit } from '../db/audit.repository.ts';
import type { Operator } from '../../survey/operators/operators.struct.ts';
import type { SignInWay } from '../db/tables/console-sign-ins.table.ts';
import { callText, consoleCall, type ConsoleCall } from './console-guard.ts';
import { CEREMONY_WORDS, clientFacts, done, refusal } from './console-replies.ts';
import { findOperator } from './operators.ts';
import { authenticationOptions, registrationOptions, verifyAuthentication, verifyRegistration } from './passkeys.ts';
import { credentialsOf, insertCredential } from './passkeys.repository.ts';
import { endSession, sessionCookie, startSession } from './sessions.ts';
import { CONSOLE_AUDIT_PROJECT, enrolmentLink, issueEnrolmentLink } from './enrolment.ts';
import { enrolmentsSince, spendEnrolment } from './enrolments.repository.ts';
import { logSignIn } from './sign-in-log.repository.ts';
import { mailEnrolmentLink } from './console-mail.ts';
import { agentWords } from './agent.ts';
import { countAgainstLimit, countNameAgainstLimit } from '../rate-limit.ts';

// The console's endpoints before a session (`/api/console/…` in the route table): signing in with
// a passkey, a first passkey from an enrolment link, and a link asked for by mail. The gate
// (console-guard.ts) has checked the console's address and origin; each counts against the
// client's allowance, and every attempt goes to the sign-in log.

/** Enrolment links one operator may ask for by mail in this long, and how many. */
const LINK_REQUEST_WINDOW_MS = 10 * 60 * 1000;
const LINK_REQUESTS_PER_WINDOW = 3;

/** The enrolment links asked for by mail, decided one after another after their answers. */
let linkRequests: Promise<unknown> = Promise.resolve();

/** Where a signed-in operator goes after signing in. */
const HOME = '/console/';

/** Counts an attempt against the client's allowance; the 429 once it is used up. */
async function limited(context: APIContext, call: ConsoleCall): Promise<Response | undefined> {
  const reached = await countAgainstLimit('console', context.request, context.clientAddress, call.now);
  return reached && refusal(context.request, 429, 'rate_limited', reached.message, { 'Retry-After': String(reached.retryAfter) });
}

/** A session begun: logged as won, the browser given its cookie, and the session it had (if any) ended. */
async function signInNow(
  db: Kysely<Database>,
  context: APIContext,
  call: ConsoleCall,
  operator: Operator,
  way: SignInWay,
  credentialId: string,
  status: number,
) {
  const { token, session } = await startSession(db, operator.key, call.now, agentWords(context.request.headers.get('user-agent')));
  if (call.signedIn) await endSession(db, call.signedIn.operator.key, call.signedIn.session.id, 'signed_out', call.now);
  await logSignIn(db, { way, outcome: 'signed_in', operator: operator.key, credentialId, sessionId: session.id, now: call.now, ...clientFacts(context) });
  return json(status, { signed_in: true, next: HOME }, { 'Set-Cookie': sessionCookie(call.address, token) });
}

/** POST /api/console/sign-in/options: a passkey check's options, for any discoverable passkey of this site. */
export async function signInOptions(context: APIContext): Promise<Response> {
  const call = consoleCall(context.request);
  const stop = await limited(context, call);
  if (stop) return stop;
  const { db } = await database();
  return json(200, await authenticationOptions(db, call.address, { purpose: 'sign-in' }, call.now));
}

/** POST /api/console/sign-in: `{ ceremony, response }` from startAuthentication; a new session and its cookie, or 401. Every attempt is logged. */
export async function signIn(context: APIContext): Promise<Response> {
  const call = consoleCall(context.request);
  const stop = await limited(context, call);
  if (stop) return stop;
  const { db } = await database();
  const checked = await verifyAuthentication(db, call.address, call.fields.get('ceremony'), call.fields.get('response'), { purpose: 'sign-in' }, call.now);
  const operator = 'credential' in checked ? findOperator(checked.credential.operator) : undefined;
  if (!('credential' in checked) || !operator) {
    const reason = 'refused' in checked ? checked.refused : 'not_an_operator';
    const claimed = 'refused' in checked ? checked.operator : checked.credential.operator;
    await logSignIn(db, {
      way: 'passkey',
      outcome: 'refused',
      operator: claimed ?? null,
      credentialId: 'refused' in checked ? checked.credentialId : checked.credential.id,
      reason,
      now: call.now,
      ...clientFacts(context),
    });
    // Guesses at one operator's passkey from many clients count against that operator too.
    const tooMany = claimed ? await countNameAgainstLimit('console', claimed, call.now) : undefined;
    if (tooMany) return refuse(429, 'rate_limited', tooMany.message, [], { 'Retry-After': String(tooMany.retryAfter) });
    return refuse(401, 'not_signed_in', CEREMONY_WORDS[reason]);
  }
  return signInNow(db, context, call, operator, 'passkey', checked.credential.id, 200);
}

/** The enrolment link a call names (`token`) and its operator, or the answer that stops it: unknown, used, expired, or its operator gone from the file. */
async function linkOf(db: Kysely<Database>, context: APIContext, call: ConsoleCall): Promise<{ operator: Operator; tokenHash: string } | Response> {
  const token = callText(call, 'token') ?? '';
  const link = await enrolmentLink(db, token, call.now);
  const operator = link.state === 'valid' ? findOperator(link.operator) : undefined;
  if (link.state === 'valid' && operator) return { operator, tokenHash: link.tokenHash };
  const state = link.state === 'valid' ? 'unknown' : link.state;
  await logSignIn(db, {
    way: 'enrolment',
    outcome: 'refused',
    reason: `${state}_link`,
    operator: link.state === 'valid' ? link.operator : null,
    now: call.now,
    ...clientFacts(context),
  });
  const words = {
    used: 'This enrolment link has been used. Sign in with your passkey, or ask for a new link.',
    expired: 'This enrolment link has expired. Ask for a new one on the sign-in page.',
    unknown: 'This enrolment link is not valid. Ask for a new one on the sign-in page.',
  };
  return refuse(state === 'unknown' ? 404 : 410, `${state}_link`, words[state]);
}

/** POST /api/console/enrol/options: `{ token }`, a live enrolment link's; the options to make its operator's passkey. */
export async function enrolOptions(context: APIContext): Promise<Response> {
  const call = consoleCall(context.request);
  const stop = await limited(context, call);
  if (stop) return stop;
  const { db } = await database();
  const link = await linkOf(db, context, call);
  if (link instanceof Response) return link;
  const ceremony = { purpose: 'enrol' as const, operator: link.operator.key, enrolment: link.tokenHash };
  return json(200, await registrationOptions(db, call.address, link.operator, ceremony, call.now));
}

/**
 * POST /api/console/enrol: `{ token, ceremony, response }` from startRegistration. In one
 * transaction the link is spent (once, by the first answer that verifies), the passkey stored
 * and audited, and a session begun.
 */
export async function enrol(context: APIContext): Promise<Response> {
  const call = consoleCall(context.request);
  const stop = await limited(context, call);
  if (stop) return stop;
  const { db } = await database();
  const link = await linkOf(db, context, call);
  if (link instanceof Response) return link;
  const { operator } = link;
  const ceremony = { purpose: 'enrol' as const, operator: operator.key, enrolment: link.tokenHash };
  const made = await verifyRegistration(db, call.address, call.fields.get('ceremony'), call.fields.get('response'), ceremony, call.now);
  if ('refused' in made) {
    await logSignIn(db, { way: 'enrolment', outcome: 'refused', operator: operator.key, reason: made.refused, now: call.now, ...clientFacts(context) });
    return refuse(400, 'not_enrolled', CEREMONY_WORDS[made.refused]);
  }
  const spent = await db.transaction().execute(async (trx) => {
    if (!(await spendEnrolment(trx, link.tokenHash, call.now.toISOString()))) return false;
    await insertCredential(trx, made.credential);
    await appendAudit(trx, {
      projectId: CONSOLE_AUDIT_PROJECT,
      actor: operator.name,
      via: 'console',
      actorEmail: operator.key,
      action: 'passkey added',
      subject: operator.key,
      details: { credential: made.credential.id, from: 'enrolment link' },
      now: call.now,
    });
    return true;
  });
  if (!spent) {
    await logSignIn(db, { way: 'enrolment', outcome: 'refused', operator: operator.key, reason: 'used_link', now: call.now, ...clientFacts(context) });
    return refuse(410, 'used_link', 'This enrolment link has been used. Sign in with your passkey, or ask for a new link.');
  }
  return signInNow(db, context, call, operator, 'enrolment', made.credential.id, 201);
}

/**
 * POST /api/console/enrolment-request: `email`. Mails a new enrolment link when the address is
 * an operator's without a passkey (at most 3 in 10 minutes); answers the same in every case,
 * at once, before any of that is decided, so that the answer tells nothing of the address.
 */
export async function enrolmentRequest(context: APIContext): Promise<Response> {
  const call = consoleCall(context.request);
  const stop = await limited(context, call);
  if (stop) return stop;
  const email = (callText(call, 'email') ?? '').trim().slice(0, 320);
  const { db } = await database();
  const from = clientFacts(context);
  const decide = async () => {
    const operator = email ? findOperator(email) : undefined;
    const log = (outcome: 'mailed' | 'refused', reason: string | null) =>
      logSignIn(db, { way: 'link-request', outcome, operator: operator?.key ?? null, reason, now: call.now, ...from });
    if (!operator) return log('refused', 'unknown_address');
    if ((await credentialsOf(db, operator.key)).length > 0) return log('refused', 'has_passkey');
    const since = new Date(call.now.getTime() - LINK_REQUEST_WINDOW_MS).toISOString();
    if ((await enrolmentsSince(db, operator.key, 'mail', since)) >= LINK_REQUESTS_PER_WINDOW) return log('refused', 'too_many_links');
    const link = await issueEnrolmentLink(db, operator, { via: 'mail', issuedBy: operator.key }, call.address.origin, call.now);
    const mailed = await mailEnrolmentLink(operator, link);
    return log(mailed ? 'mailed' : 'refused', mailed ? null : 'mail_failed');
  };
  // One at a time in this process, so that links asked for at once cannot pass the cap together.
  linkRequests = linkRequests.then(decide).catch((error) => console.error(`An enrolment link asked for could not be made: ${(error as Error).message}`));
  return done(
    context.request,
    202,
    { message: 'If this address belongs to an operator without a passkey, a link is on its way. It works once, for 15 minutes.' },
    '/console/sign-in?asked=1',
  );
}
