import type { APIContext } from 'astro';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { serverConfig } from '../config.ts';
import { database } from '../db/database.ts';
import { json, refuse } from '../http.ts';
import { wantsPage } from '../html-page.ts';
import { requestHashes } from '../intake/signals-salt.ts';
import { appendAudit } from '../db/audit.repository.ts';
import { CONSOLE_ACTS, mayManage } from '../../survey/operator-rights.ts';
import { operatorKey, type Operator, type OperatorRole } from '../../survey/operators.struct.ts';
import type { SignInWay } from '../db/console-sign-ins.table.ts';
import { consoleCall, refusal, type ConsoleCall } from './console-guard.ts';
import { findOperator } from './operators.ts';
import { authenticationOptions, registrationOptions, verifyAuthentication, verifyRegistration, type CeremonyRefusal } from './passkeys.ts';
import { credentialsOf, deleteCredential, insertCredential } from './passkeys.repository.ts';
import {
  clearedSessionCookie,
  endSession,
  endSessions,
  reauthenticated,
  recentlyReauthenticated,
  sessionCookie,
  startSession,
  type ConsoleSession,
} from './sessions.ts';
import { CONSOLE_AUDIT_PROJECT, enrolmentLink, issueEnrolmentLink } from './enrolment.ts';
import { enrolmentsSince, spendEnrolment } from './enrolments.repository.ts';
import { logSignIn } from './sign-in-log.repository.ts';
import { mailEnrolmentLink } from './console-mail.ts';
import { agentWords } from './agent.ts';
import { countAgainstLimit, countNameAgainstLimit } from '../rate-limit.ts';
import { surveyOverview, surveyParticipation } from './console-pages.ts';

// The console's endpoints (`/api/console/…` in the route table, src/server/routes.ts): passkey
// ceremonies, sessions, enrolment links, the operators an owner manages, and the surveys'
// figures as JSON. The gate (console-guard.ts) has checked the address, the origin, the session
// and the CSRF token before any of these runs; each act asks `may` (or `mayManage`) itself.

/** Enrolment links one operator may ask for by mail in this long, and how many. */
const LINK_REQUEST_WINDOW_MS = 10 * 60 * 1000;
const LINK_REQUESTS_PER_WINDOW = 3;

/** Where a signed-in operator goes after signing in. */
const HOME = '/console/';

/** Done: JSON for a script, a 303 to the page that shows it for a form. */
function done(request: Request, status: number, body: Record<string, unknown>, page: string, headers: Record<string, string> = {}): Response {
  if (wantsPage(request)) return new Response(null, { status: 303, headers: { Location: page, ...headers } });
  return json(status, body, headers);
}

/** A field of the body as text; undefined when absent or not text. */
const field = (call: ConsoleCall, name: string): string | undefined => {
  const value = call.fields.get(name);
  return typeof value === 'string' ? value : undefined;
};

/** The signed-in operator of a call past the gate's 401 (the gate lets no call without a session reach these). */
function signedIn(call: ConsoleCall): { session: ConsoleSession; operator: Operator } {
  const operator = call.session && findOperator(call.session.operator);
  if (!call.session || !operator) throw new Error('A console act was reached without a session.');
  return { session: call.session, operator };
}

/** What the sign-in log keeps of the client: a keyed hash of its address, and its browser in words. */
function client(context: APIContext): { clientHash: string | null; agent: string | null } {
  const { clientHash } = requestHashes(context.request, context.clientAddress, serverConfig(), CONSOLE_AUDIT_PROJECT);
  return { clientHash: clientHash ?? null, agent: agentWords(context.request.headers.get('user-agent')) };
}

/** Counts an attempt against the client's allowance; the 429 once it is used up. */
async function limited(context: APIContext, call: ConsoleCall, name?: string): Promise<Response | undefined> {
  const reached =
    (await countAgainstLimit('console', context.request, context.clientAddress, call.now)) ??
    (name ? await countNameAgainstLimit('console', name, call.now) : undefined);
  return reached && refusal(context.request, 429, 'rate_limited', reached.message, { 'Retry-After': String(reached.retryAfter) });
}

/**
 * The facts the audit trail keeps of an act in the console, until it has fields of their own:
 * how, who, the role the act was done in (an owner's over other operators; none over one's own
 * passkeys), in which session.
 */
function actFacts(operator: Operator, session: ConsoleSession, role: OperatorRole | null): Record<string, unknown> {
  return { via: 'console', actor_email: operator.key, role, session: session.id };
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
  if (call.session) await endSession(db, call.session.operator, call.session.id, 'signed_out', call.now);
  await logSignIn(db, { way, outcome: 'signed_in', operator: operator.key, credentialId, sessionId: session.id, now: call.now, ...client(context) });
  return json(status, { signed_in: true, next: HOME }, { 'Set-Cookie': sessionCookie(call.address, token) });
}

/** Words for each refusal of a ceremony, for the operator. */
const CEREMONY_WORDS: Record<CeremonyRefusal | 'not_an_operator', string> = {
  unknown_ceremony: 'This sign-in was not started here, or was used already: try again.',
  expired_ceremony: 'This sign-in took too long: try again.',
  unknown_passkey: 'This passkey belongs to no operator of this console.',
  not_your_passkey: 'This passkey is not yours.',
  not_verified: 'The passkey could not be verified: try again.',
  not_an_operator: 'This passkey belongs to no operator of this console.',
};

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
      ...client(context),
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
  const token = field(call, 'token') ?? '';
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
    ...client(context),
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
  const context_ = { purpose: 'enrol' as const, operator: link.operator.key, enrolment: link.tokenHash };
  return json(200, await registrationOptions(db, call.address, link.operator, context_, call.now));
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
    await logSignIn(db, { way: 'enrolment', outcome: 'refused', operator: operator.key, reason: made.refused, now: call.now, ...client(context) });
    return refuse(400, 'not_enrolled', CEREMONY_WORDS[made.refused]);
  }
  const spent = await db.transaction().execute(async (trx) => {
    if (!(await spendEnrolment(trx, link.tokenHash, call.now.toISOString()))) return false;
    await insertCredential(trx, made.credential);
    await appendAudit(trx, {
      projectId: CONSOLE_AUDIT_PROJECT,
      actor: operator.key,
      action: 'passkey added',
      subject: operator.key,
      details: { via: 'console', actor_email: operator.key, credential: made.credential.id, from: 'enrolment link' },
      now: call.now,
    });
    return true;
  });
  if (!spent) {
    await logSignIn(db, { way: 'enrolment', outcome: 'refused', operator: operator.key, reason: 'used_link', now: call.now, ...client(context) });
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
  const email = (field(call, 'email') ?? '').trim().slice(0, 320);
  const { db } = await database();
  const from = client(context);
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
  setImmediate(() => decide().catch((error) => console.error(`An enrolment link asked for could not be made: ${(error as Error).message}`)));
  return done(
    context.request,
    202,
    { message: 'If this address belongs to an operator without a passkey, a link is on its way. It works once, for 15 minutes.' },
    '/console/sign-in?asked=1',
  );
}

/** POST /api/console/sign-out: ends this session on the server and removes its cookie. */
export async function signOut(context: APIContext): Promise<Response> {
  const call = consoleCall(context.request);
  const { session, operator } = signedIn(call);
  const { db } = await database();
  await endSession(db, operator.key, session.id, 'signed_out', call.now);
  return done(context.request, 200, { signed_out: true }, '/console/sign-in?signed_out=1', { 'Set-Cookie': clearedSessionCookie(call.address) });
}

/** POST /api/console/sign-out-everywhere: ends every session of the operator, this one included. */
export async function signOutEverywhere(context: APIContext): Promise<Response> {
  const call = consoleCall(context.request);
  const { operator } = signedIn(call);
  const { db } = await database();
  const ended = await endSessions(db, operator.key, 'signed_out_everywhere', call.now);
  return done(context.request, 200, { signed_out: true, ended }, '/console/sign-in?signed_out=1', { 'Set-Cookie': clearedSessionCookie(call.address) });
}

/** POST /api/console/reauthenticate/options: a check of one of the signed-in operator's own passkeys. */
export async function reauthenticateOptions(context: APIContext): Promise<Response> {
  const call = consoleCall(context.request);
  const { session, operator } = signedIn(call);
  const { db } = await database();
  return json(200, await authenticationOptions(db, call.address, { purpose: 'reauthenticate', operator: operator.key, sessionId: session.id }, call.now));
}

/** POST /api/console/reauthenticate: `{ ceremony, response }`; the session may do sensitive acts for five minutes. Logged, won or lost. */
export async function reauthenticate(context: APIContext): Promise<Response> {
  const call = consoleCall(context.request);
  const { session, operator } = signedIn(call);
  const { db } = await database();
  const ceremony = { purpose: 'reauthenticate' as const, operator: operator.key, sessionId: session.id };
  const checked = await verifyAuthentication(db, call.address, call.fields.get('ceremony'), call.fields.get('response'), ceremony, call.now);
  if ('refused' in checked) {
    await logSignIn(db, {
      way: 'reauthentication',
      outcome: 'refused',
      operator: operator.key,
      credentialId: checked.credentialId,
      sessionId: session.id,
      reason: checked.refused,
      now: call.now,
      ...client(context),
    });
    return refuse(401, 'not_verified', CEREMONY_WORDS[checked.refused]);
  }
  await reauthenticated(db, session, call.now);
  await logSignIn(db, {
    way: 'reauthentication',
    outcome: 'signed_in',
    operator: operator.key,
    credentialId: checked.credential.id,
    sessionId: session.id,
    now: call.now,
    ...client(context),
  });
  return json(200, { reauthenticated: true });
}

/** The 403 of a sensitive act without a passkey check in the last five minutes. */
function checkAgain(request: Request): Response {
  return refusal(request, 403, 'reauthentication_required', 'Confirm it is you with your passkey, then try again.');
}

/** POST /api/console/passkeys/options: the options to add a passkey, after a recent check. */
export async function passkeyOptions(context: APIContext): Promise<Response> {
  const call = consoleCall(context.request);
  const { session, operator } = signedIn(call);
  if (!recentlyReauthenticated(session, call.now)) return checkAgain(context.request);
  const { db } = await database();
  return json(200, await registrationOptions(db, call.address, operator, { purpose: 'add-passkey', operator: operator.key, sessionId: session.id }, call.now));
}

/** POST /api/console/passkeys: `{ ceremony, response }`; stores the new passkey, audited. */
export async function addPasskey(context: APIContext): Promise<Response> {
  const call = consoleCall(context.request);
  const { session, operator } = signedIn(call);
  if (!recentlyReauthenticated(session, call.now)) return checkAgain(context.request);
  const { db } = await database();
  const ceremony = { purpose: 'add-passkey' as const, operator: operator.key, sessionId: session.id };
  const made = await verifyRegistration(db, call.address, call.fields.get('ceremony'), call.fields.get('response'), ceremony, call.now);
  if ('refused' in made) return refuse(400, 'not_added', CEREMONY_WORDS[made.refused]);
  await db.transaction().execute(async (trx) => {
    await insertCredential(trx, made.credential);
    await appendAudit(trx, {
      projectId: CONSOLE_AUDIT_PROJECT,
      actor: operator.key,
      action: 'passkey added',
      subject: operator.key,
      details: { ...actFacts(operator, session, null), credential: made.credential.id },
      now: call.now,
    });
  });
  return json(201, { added: made.credential.id });
}

/** POST /api/console/passkeys/{id}/remove: removes one of the operator's own passkeys, after a recent check; never the last one. */
export async function removePasskey(context: APIContext, id: string): Promise<Response> {
  const call = consoleCall(context.request);
  const { session, operator } = signedIn(call);
  if (!recentlyReauthenticated(session, call.now)) return checkAgain(context.request);
  const { db } = await database();
  const own = await credentialsOf(db, operator.key);
  if (!own.some((row) => row.id === id)) return refusal(context.request, 404, 'unknown_passkey', 'You have no such passkey.');
  if (own.length === 1) return refusal(context.request, 409, 'last_passkey', 'This is your only passkey: add another before you remove it.');
  await db.transaction().execute(async (trx) => {
    await deleteCredential(trx, operator.key, id);
    await appendAudit(trx, {
      projectId: CONSOLE_AUDIT_PROJECT,
      actor: operator.key,
      action: 'passkey removed',
      subject: operator.key,
      details: { ...actFacts(operator, session, null), credential: id },
      now: call.now,
    });
  });
  return done(context.request, 200, { removed: id }, '/console/sessions/?removed=1');
}

/**
 * The operator an owner acts on (`:operator`, an address), or the answer that stops the act:
 * unknown, or not theirs to manage (403, nothing changes); and a passkey check in the last
 * five minutes, as the act is sensitive.
 */
function managed(context: APIContext, call: ConsoleCall, param: string): { session: ConsoleSession; operator: Operator; other: Operator } | Response {
  const { session, operator } = signedIn(call);
  // Astro leaves a reserved character of a path part encoded (the address's @ as %40).
  let address = param;
  try {
    address = decodeURIComponent(param);
  } catch {
    // Not a well-formed escape: taken as it is, which names no one.
  }
  const other = findOperator(address);
  if (!other || operator.key === operatorKey(address) || !mayManage(operator, other))
    return refusal(
      context.request,
      403,
      'forbidden',
      'Only an owner of every survey that operator works on may manage them; you may manage your own sessions on the sessions page.',
    );
  if (CONSOLE_ACTS['manage-operators'].sensitive && !recentlyReauthenticated(session, call.now)) return checkAgain(context.request);
  return { session, operator, other };
}

/** POST /api/console/operators/{operator}/link: mails that operator a new enrolment link (an owner's act, audited); for one who has passkeys, it ends their sessions. */
export async function operatorLink(context: APIContext, address: string): Promise<Response> {
  const call = consoleCall(context.request);
  const found = managed(context, call, address);
  if (found instanceof Response) return found;
  const { session, operator, other } = found;
  const { db } = await database();
  const reason = field(call, 'why')?.trim().slice(0, 500) || null;
  const link = await issueEnrolmentLink(
    db,
    other,
    {
      via: 'console',
      issuedBy: operator.key,
      audit: { actor: operator.key, reason: reason ?? undefined, details: actFacts(operator, session, CONSOLE_ACTS['manage-operators'].role) },
    },
    call.address.origin,
    call.now,
  );
  const mailed = await mailEnrolmentLink(other, link);
  if (!mailed)
    return refusal(context.request, 503, 'mail_failed', 'The link could not be mailed just now: try again in a few minutes.', { 'Retry-After': '60' });
  return done(context.request, 202, { mailed: true, ended_sessions: link.endedSessions, expires_at: link.expiresAt }, '/console/operators?mailed=1');
}

/** POST /api/console/operators/{operator}/end-sessions: ends every session of that operator (an owner's act, audited). */
export async function operatorEndSessions(context: APIContext, address: string): Promise<Response> {
  const call = consoleCall(context.request);
  const found = managed(context, call, address);
  if (found instanceof Response) return found;
  const { session, operator, other } = found;
  const { db } = await database();
  const ended = await db.transaction().execute(async (trx) => {
    const count = await endSessions(trx, other.key, 'ended_by_owner', call.now);
    await appendAudit(trx, {
      projectId: CONSOLE_AUDIT_PROJECT,
      actor: operator.key,
      action: 'operators end-sessions',
      subject: other.key,
      details: { ...actFacts(operator, session, CONSOLE_ACTS['manage-operators'].role), ended_sessions: count },
      now: call.now,
    });
    return count;
  });
  return done(context.request, 200, { ended }, '/console/operators?ended=1');
}

/** GET /api/console/surveys: the signed-in operator's surveys with their figures, as the console's first page shows them. */
export async function surveysJson(context: APIContext): Promise<Response> {
  const call = consoleCall(context.request);
  const { operator } = signedIn(call);
  return json(200, { surveys: await surveyOverview(operator, call.now) });
}

/** GET /api/console/surveys/{slug}: one survey's participation; 404 for a survey the operator has no role on, as for one that does not exist. */
export async function surveyJson(context: APIContext, slug: string): Promise<Response> {
  const call = consoleCall(context.request);
  const { operator } = signedIn(call);
  const figures = await surveyParticipation(operator, slug, call.now);
  if (!figures) return refuse(404, 'unknown_survey', 'There is no such survey for you here.');
  return json(200, figures);
}
