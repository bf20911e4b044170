import type { APIContext, MiddlewareNext } from 'astro';
import { serverConfig } from '../config.ts';
import { database } from '../db/database.ts';
import { refuse } from '../http.ts';
import { requestTime } from '../request-hooks.ts';
import { readLimited } from '../intake/multipart.ts';
import { CSRF_FIELD, CSRF_HEADER, type ConsoleLocals } from '../../survey/operators/console-views.ts';
import type { Operator } from '../../survey/operators/operators.struct.ts';
import { consoleAddress, isConsoleAddress, type ConsoleAddress } from './console-address.ts';
import { consoleOperators, findOperator } from './operators.ts';
import { csrfMatches, sessionOf, sessionToken, type ConsoleSession } from './sessions.ts';
import { refusal } from './console-replies.ts';

// The console's gate, run by the middleware (src/middleware.ts) before any console page or
// console endpoint: the console's own address, its operators file, the session a cookie names
// and the operator it belongs to now, and for every change the site's own origin and the
// session's CSRF token. What it finds travels in `locals.console`.

/** Where the console's pages are. */
const PAGES = /^\/console(\/|$)/;
/** The console's endpoints in the route table (src/server/routes.ts). */
const API = '/api/console/';
/** The pages anyone may open: signing in, and a first passkey from a link. */
const OPEN_PAGES = /^\/console\/(sign-in|enrol\/[^/]*)\/?$/;
/** The endpoints that come before a session: signing in, a first passkey from a link, a link asked for by mail. */
const OPEN_ROUTES = new Set([
  '/api/console/sign-in/options',
  '/api/console/sign-in',
  '/api/console/enrol/options',
  '/api/console/enrol',
  '/api/console/enrolment-request',
]);
/** The most a console request's body may hold: a passkey's answer is a few kilobytes. */
const BODY_LIMIT = 64 * 1024;
/** The console's endpoints that take a file (a bounce report), and the most their body may hold. */
const UPLOAD_ROUTE = /^\/api\/console\/surveys\/[^/]+\/mail\/bounces\/?$/;
/** The most a file upload's body may hold: a month's bounces in one mbox. Exported for the words of its 413. */
export const UPLOAD_LIMIT = 5 * 1024 * 1024;
/** What a page says when the operators file cannot be used (the log says why; the page says nothing of the file). */
const UNAVAILABLE = "The console is unavailable just now: its list of operators cannot be read. The server's log says why.";

/** True for an address of the console's pages. */
export function isConsolePage(pathname: string): boolean {
  return PAGES.test(pathname);
}

/** True for a route of the console's endpoints. */
export function isConsoleRoute(path: string): boolean {
  return path.startsWith(API);
}

/** What a console endpoint's handler gets from the gate: the console's address, the time, the session (when one is open) and the fields its body carried. */
export interface ConsoleCall {
  readonly address: ConsoleAddress;
  readonly now: Date;
  /** The signed-in operator's session, and the operator as operators.yaml gives them for this request. */
  readonly signedIn?: { readonly session: ConsoleSession; readonly operator: Operator };
  readonly fields: ReadonlyMap<string, unknown>;
}

/** The calls the gate let through, by request: a handler reads its call here, the body parsed once. */
const calls = new WeakMap<Request, ConsoleCall>();

/** The call the gate let through for this request; a console handler is never reached without one. */
export function consoleCall(request: Request): ConsoleCall {
  const call = calls.get(request);
  if (!call) throw new Error('A console endpoint was reached without the console gate.');
  return call;
}

/** A text field of a call's body; undefined when absent or not text. */
export function callText(call: ConsoleCall, name: string): string | undefined {
  const value = call.fields.get(name);
  return typeof value === 'string' ? value : undefined;
}

/**
 * True when a change comes from the console's own pages: the site's own Origin, and, when the
 * browser says, a same-origin fetch. A form a page posts (Referrer-Policy no-referrer makes
 * the browser say `Origin: null`) passes on `Sec-Fetch-Site: same-origin`, which no script can set.
 */
function ownOrigin(request: Request, address: ConsoleAddress): boolean {
  const origin = request.headers.get('origin');
  const site = request.headers.get('sec-fetch-site');
  if (origin === address.origin) return site === null || site === 'same-origin';
  return origin === 'null' && site === 'same-origin';
}

/**
 * The fields of a console request's body: JSON (the pages' scripts) or a form (the pages without
 * them), or a multipart form where `uploads` (its files as File values); undefined when
 * unreadable, 'too-large' past the limit.
 */
async function readFields(request: Request, uploads: boolean): Promise<Map<string, unknown> | 'too-large' | undefined> {
  if (request.method === 'GET' || request.method === 'HEAD') return new Map();
  const body = await readLimited(request, uploads ? UPLOAD_LIMIT : BODY_LIMIT);
  if (body === 'too-large') return body;
  const type = request.headers.get('content-type') ?? '';
  if (uploads && /^multipart\/form-data/i.test(type)) {
    try {
      return new Map(await new Response(body as Uint8Array<ArrayBuffer>, { headers: { 'Content-Type': type } }).formData());
    } catch {
      return undefined;
    }
  }
  const text = new TextDecoder().decode(body);
  if (/^application\/x-www-form-urlencoded/i.test(type)) return new Map(new URLSearchParams(text));
  if (/^application\/json/i.test(type) || text.trim() === '') {
    if (text.trim() === '') return new Map();
    try {
      const parsed: unknown = JSON.parse(text);
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? new Map(Object.entries(parsed)) : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The signed-in session a request's cookie names and its operator now, when both are there. */
async function signedIn(
  request: Request,
  address: ConsoleAddress,
  now: Date,
): Promise<{ session: ConsoleSession; operator: Operator; locals: ConsoleLocals } | undefined> {
  const token = sessionToken(request, address);
  if (!token) return undefined;
  const { db } = await database();
  const session = await sessionOf(db, token, now);
  // An operator removed from the file, or no longer holding a role anywhere, has no session here, from this request on.
  const operator = session && findOperator(session.operator);
  if (!session || !operator) return undefined;
  return { session, operator, locals: { open: true, visit: { operator, session, csrf: session.csrf } } };
}

/**
 * The gate of a console endpoint: the answer that stops the request (a wrong address, the
 * console shut, a change from elsewhere, no session, no CSRF token, an unreadable body), or
 * undefined to go on, with the call kept for the handler and `locals.console` set.
 */
export async function guardConsoleRoute(context: APIContext, path: string): Promise<Response | undefined> {
  const { request } = context;
  const found = consoleAddress(context.url, serverConfig());
  if (!isConsoleAddress(found))
    return refusal(request, 403, 'wrong_address', 'redirect' in found ? `The console is at ${new URL(found.redirect).origin}.` : found.why);
  const state = consoleOperators();
  if (!state.usable) return refusal(request, 503, 'console_unavailable', UNAVAILABLE);
  const changes = request.method === 'POST';
  if (changes && !ownOrigin(request, found)) return refusal(request, 403, 'forbidden_origin', 'Console changes are accepted only from the console itself.');
  const now = requestTime(request);
  const who = await signedIn(request, found, now);
  if (!who && !OPEN_ROUTES.has(path)) return refusal(request, 401, 'not_signed_in', 'Sign in to the console first.');
  const uploads = UPLOAD_ROUTE.test(path);
  const fields = await readFields(request, uploads);
  if (fields === 'too-large' && uploads)
    return refusal(request, 413, 'too_large', `The file is larger than ${UPLOAD_LIMIT / 1024 / 1024} MB: split it and send the parts one at a time.`);
  if (!fields || fields === 'too-large') return refusal(request, 400, 'bad_request', 'The request body is not JSON or a form, or it is too large.');
  if (who && changes && !OPEN_ROUTES.has(path)) {
    const given = request.headers.get(CSRF_HEADER) ?? fields.get(CSRF_FIELD);
    if (!csrfMatches(who.session, typeof given === 'string' ? given : undefined))
      return refusal(request, 403, 'bad_csrf_token', 'This form is out of date: reload the page and try again.');
  }
  context.locals.console = who?.locals ?? { open: true };
  calls.set(request, { address: found, now, signedIn: who && { session: who.session, operator: who.operator }, fields });
  return undefined;
}

/** The headers of every console answer: never cached, never framed, no referrer, no sniffing. */
export function consoleHeaders(response: Response): Response {
  const headers = { 'Cache-Control': 'no-store', 'X-Frame-Options': 'DENY', 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff' };
  try {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  } catch {
    // A Response whose headers are immutable (a redirect made by Response.redirect) is copied.
    const copy = new Response(response.body, response);
    for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
    return copy;
  }
}

/** A redirect to a console address, never cached. */
function redirect(location: string, status = 303): Response {
  return new Response(null, { status, headers: { Location: location } });
}

/**
 * The gate of a console page: to the console's own address when asked at another; to the
 * sign-in page without a session (which says so when the console is shut); the page itself
 * otherwise, with `locals.console` set. A signed-in operator asking for the sign-in page goes
 * to their surveys.
 */
export async function guardConsolePage(context: APIContext, next: MiddlewareNext): Promise<Response> {
  const { request, url } = context;
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return consoleHeaders(refuse(405, 'method_not_allowed', 'Console pages take GET.', [], { Allow: 'GET, HEAD' }));
  const found = consoleAddress(url, serverConfig());
  if ('redirect' in found) return consoleHeaders(redirect(found.redirect, 302));
  const open = OPEN_PAGES.test(url.pathname);
  const signInPage = /^\/console\/sign-in\/?$/.test(url.pathname);
  if (!isConsoleAddress(found) || !consoleOperators().usable) {
    if (!signInPage) return consoleHeaders(redirect('/console/sign-in'));
    context.locals.console = { open: false, why: isConsoleAddress(found) ? UNAVAILABLE : found.why };
    return consoleHeaders(await next());
  }
  const who = await signedIn(request, found, requestTime(request));
  if (!who && !open) return consoleHeaders(redirect('/console/sign-in'));
  if (who && signInPage) return consoleHeaders(redirect('/console/'));
  context.locals.console = who?.locals ?? { open: true };
  return consoleHeaders(await next());
}
