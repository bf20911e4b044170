import type { APIContext } from 'astro';
import { database } from '../db/database.ts';
import { json, refuse } from '../http.ts';
import { appendAudit } from '../db/audit.repository.ts';
import { CONSOLE_ACTS, mayManage } from '../../survey/operators/operator-rights.ts';
import { operatorKey, type Operator } from '../../survey/operators/operators.struct.ts';
import { callText, consoleCall, type ConsoleCall } from './console-guard.ts';
import { CEREMONY_WORDS, clientFacts, done, refusal } from './console-replies.ts';
import { findOperator } from './operators.ts';
import { authenticationOptions, registrationOptions, verifyAuthentication, verifyRegistration } from './passkeys.ts';
import { credentialsOf, deleteCredential, insertCredential } from './passkeys.repository.ts';
import { clearedSessionCookie, endSession, endSessions, reauthenticated, recentlyReauthenticated, signedBy, type ConsoleSession } from './sessions.ts';
import { CONSOLE_AUDIT_PROJECT, issueEnrolmentLink } from './enrolment.ts';
import { logSignIn } from './sign-in-log.repository.ts';
import { mailEnrolmentLink } from './console-mail.ts';
import { surveyOverview, surveyParticipation } from './console-pages.ts';
import { ROSTER_COLUMN_PARAM } from '../../survey/operators/console-views.ts';

// The console's endpoints for a signed-in operator (`/api/console/…` in the route table): signing
// out, a passkey checked again, passkeys added and removed, an owner's acts on other operators,
// and the surveys' figures as JSON. The gate (console-guard.ts) has checked the address, the
// origin, the session and the CSRF token; each act asks `may` (or `mayManage`) itself.

/** The signed-in operator of a call past the gate's 401 (the gate lets no call without a session reach these), as the gate found them. */
export function signedIn(call: ConsoleCall): { session: ConsoleSession; operator: Operator } {
  if (!call.signedIn) throw new Error('A console act was reached without a session.');
  return call.signedIn;
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
      ...clientFacts(context),
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
    ...clientFacts(context),
  });
  return json(200, { reauthenticated: true });
}

/** The 403 of a sensitive act without a passkey check in the last five minutes. */
export function checkAgain(request: Request): Response {
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
      ...signedBy(operator, session, null),
      action: 'passkey added',
      subject: operator.key,
      details: { credential: made.credential.id },
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
      ...signedBy(operator, session, null),
      action: 'passkey removed',
      subject: operator.key,
      details: { credential: id },
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
  const reason = callText(call, 'why')?.trim().slice(0, 500) || null;
  const link = await issueEnrolmentLink(
    db,
    other,
    {
      via: 'console',
      issuedBy: operator.key,
      audit: { ...signedBy(operator, session, CONSOLE_ACTS['manage-operators'].role), reason: reason ?? undefined },
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
      ...signedBy(operator, session, CONSOLE_ACTS['manage-operators'].role),
      action: 'operators end-sessions',
      subject: other.key,
      details: { ended_sessions: count },
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

/** GET /api/console/surveys/{slug}: one survey's participation (its people by the roster column `?by=` names); 404 for a survey the operator has no role on, as for one that does not exist. */
export async function surveyJson(context: APIContext, slug: string): Promise<Response> {
  const call = consoleCall(context.request);
  const { operator } = signedIn(call);
  const figures = await surveyParticipation(operator, slug, call.now, new URL(context.request.url).searchParams.get(ROSTER_COLUMN_PARAM));
  if (!figures) return refuse(404, 'unknown_survey', 'There is no such survey for you here.');
  return json(200, figures);
}
