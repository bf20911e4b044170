import type { APIContext } from 'astro';
import { matchRoute, type RouteMatch, type RouteParams, type RoutePath } from './routes.ts';
import { answerBallotPost } from './intake/ballot-post.ts';
import { searchReply } from './search/search-reply.ts';
import { healthReply, linkReply, statsReply } from './survey-routes.ts';
import { reservationReply } from './reservations/lookup.ts';
import { checkReceipt } from './receipts/receipts.ts';
import { unsubscribeNow, unsubscribePage } from './mail/unsubscribe.ts';
import { checkCodeReply, sendCodeReply } from './verify/verify-reply.ts';
import * as signIn from './console/console-sign-in.ts';
import * as acts from './console/console-acts.ts';
import { admitRefusedBallot } from './console/refused-acts.ts';
import { signalsBallotAct } from './console/signals-acts.ts';
import { decideWriteIn } from './console/write-ins-acts.ts';
import { importBounces, sendProgress, startSend } from './console/mail-acts.ts';
import * as results from './console/results-acts.ts';

/** What a route runs: the request's context and the values of its path's `:name` parts in, the answer out. */
type RouteHandler<Path extends string> = (context: APIContext, params: RouteParams<Path>) => Promise<Response>;

/** The server function each route of the table (routes.ts) calls; its type asks for one for every route, and no other. */
const HANDLERS: { readonly [Path in RoutePath]: RouteHandler<Path> } = {
  // Receives a ballot (src/server/intake/ballot-post.ts), posted by the page's script or as a plain form.
  '/api/survey': ({ request, clientAddress }) => answerBallotPost(request, clientAddress),
  // The Faces look-up (docs/spec.md, "Reservations"): `{ taken, confirmed }`.
  '/api/survey/faces/:projectId': ({ request }, { projectId }) => reservationReply(projectId, 'faces', request),
  // The Experts look-up (docs/spec.md, "Reservations"): `{ taken, confirmed }`; a ballot's claim holds five days.
  '/api/survey/experts/:projectId': ({ request }, { projectId }) => reservationReply(projectId, 'asktheexpert', request),
  // Participation figures for the stats page; never a nominee's count.
  '/api/survey/stats/:projectId': (_context, { projectId }) => statsReply(projectId, 'participation'),
  // Ballots per workplace for the workplace stats page; workplaces under three ballots fold into "Other".
  '/api/survey/workplace-stats/:projectId': (_context, { projectId }) => statsReply(projectId, 'workplaces'),
  // Checks a personal link: the holder's prepopulated answers, 404 for a secret the survey does not know, 410 once the
  // survey has expired, 429 past the client's allowance of checks. Opening a link never uses it up.
  '/api/survey/link/:projectId': ({ url, request, clientAddress }, { projectId }) =>
    linkReply(projectId, url.searchParams.get('secret') ?? '', request, clientAddress),
  // Searches the survey's nominee list: Algolia's multi-query body in, Algolia's response shape out, so that one
  // search client interface serves both backends.
  '/api/search/:projectId': ({ request, clientAddress }, { projectId }) => searchReply(projectId, request, clientAddress),
  // A voter's receipt check: `{ received, received_at? }`, never the ballot's content.
  '/api/survey/receipt/:projectId/:code': ({ request, clientAddress }, { projectId, code }) => checkReceipt(request, clientAddress, projectId, code),
  // The receipt check form's target, `?code=`: the same answer, a plain page for a browser without JavaScript.
  '/api/survey/receipt/:projectId': ({ request, url, clientAddress }, { projectId }) =>
    checkReceipt(request, clientAddress, projectId, url.searchParams.get('code') ?? ''),
  // Readiness: 200 once the database is open and migrated (bin/serve.mjs asks this at start).
  '/api/health': () => healthReply(),
  // One-click unsubscribe (RFC 8058) from invitations and reminders: GET shows a confirmation with a button, POST records it.
  '/api/unsubscribe/:token': ({ request }, { token }) => (request.method === 'POST' ? unsubscribeNow(request, token) : unsubscribePage(request, token)),
  // Verified voters: mails a 6-digit code to the address the voter's text names (`{ sent_to }`, masked).
  '/api/survey/verify/:projectId': ({ request, clientAddress }, { projectId }) => sendCodeReply(request, clientAddress, projectId),
  // Checks a mailed code: `{ proof, sent_to }`, the proof the ballot carries (a cookie for a browser without JavaScript).
  '/api/survey/verify/:projectId/code': ({ request }, { projectId }) => checkCodeReply(request, projectId),
  // The console (src/server/console/console-sign-in.ts and console-acts.ts), past its gate in the middleware: passkey ceremonies, sessions,
  // enrolment links, an owner's acts on other operators, and the surveys' figures.
  '/api/console/sign-in/options': (context) => signIn.signInOptions(context),
  '/api/console/sign-in': (context) => signIn.signIn(context),
  '/api/console/enrol/options': (context) => signIn.enrolOptions(context),
  '/api/console/enrol': (context) => signIn.enrol(context),
  '/api/console/enrolment-request': (context) => signIn.enrolmentRequest(context),
  '/api/console/sign-out': (context) => acts.signOut(context),
  '/api/console/sign-out-everywhere': (context) => acts.signOutEverywhere(context),
  '/api/console/reauthenticate/options': (context) => acts.reauthenticateOptions(context),
  '/api/console/reauthenticate': (context) => acts.reauthenticate(context),
  '/api/console/passkeys/options': (context) => acts.passkeyOptions(context),
  '/api/console/passkeys': (context) => acts.addPasskey(context),
  '/api/console/passkeys/:id/remove': (context, { id }) => acts.removePasskey(context, id),
  '/api/console/operators/:operator/link': (context, { operator }) => acts.operatorLink(context, operator),
  '/api/console/operators/:operator/end-sessions': (context, { operator }) => acts.operatorEndSessions(context, operator),
  '/api/console/surveys': (context) => acts.surveysJson(context),
  '/api/console/surveys/:slug': (context, { slug }) => acts.surveyJson(context, slug),
  // A refused ballot admitted from its page (src/server/console/refused-acts.ts), as `results admit` does.
  '/api/console/surveys/:slug/refused/:id/admit': (context, { slug, id }) => admitRefusedBallot(context, slug, id),
  // A ballot a signal names taken out of the count or put back from the signals page (src/server/console/signals-acts.ts), as `results exclude` and `include` do.
  '/api/console/surveys/:slug/signals/ballots/:id/exclude': (context, { slug, id }) => signalsBallotAct(context, slug, id, 'exclude'),
  '/api/console/surveys/:slug/signals/ballots/:id/restore': (context, { slug, id }) => signalsBallotAct(context, slug, id, 'include'),
  // A group of write-ins decided from its page (src/server/console/write-ins-acts.ts), as `writeins resolve` does.
  '/api/console/surveys/:slug/write-ins/attach': (context, { slug }) => decideWriteIn(context, slug, 'attach'),
  '/api/console/surveys/:slug/write-ins/add': (context, { slug }) => decideWriteIn(context, slug, 'add'),
  '/api/console/surveys/:slug/write-ins/undo': (context, { slug }) => decideWriteIn(context, slug, 'undo'),
  // The mail page's acts (src/server/console/mail-acts.ts): a send run started and followed, a bounce report read.
  '/api/console/surveys/:slug/mail/send': (context, { slug }) => startSend(context, slug),
  '/api/console/surveys/:slug/mail/runs/:id': (context, { slug, id }) => sendProgress(context, slug, id),
  '/api/console/surveys/:slug/mail/bounces': (context, { slug }) => importBounces(context, slug),
  // A survey's results page's acts (src/server/console/results-acts.ts), as `results tally` and `results publish` do.
  '/api/console/surveys/:slug/results/count': (context, { slug }) => results.countResults(context, slug),
  '/api/console/surveys/:slug/results/unseal': (context, { slug }) => results.askToUnseal(context, slug),
  '/api/console/surveys/:slug/results/unseal/:id/approve': (context, { slug, id }) => results.approveUnseal(context, slug, id),
  '/api/console/surveys/:slug/results/publish': (context, { slug }) => results.publishFromConsole(context, slug),
  '/api/console/surveys/:slug/results/counts/:id/csv': (context, { slug, id }) => results.countCsvDownload(context, slug, id),
  '/api/console/surveys/:slug/results/download': (context, { slug }) => results.publishedDownload(context, slug),
};

/**
 * The route of the table that answers this request to the survey API's endpoint
 * (src/pages/api/[...route].ts): any address on its rest parameter `route`, as Astro decoded it,
 * and a fixed address, which is an Astro route of its own without that parameter
 * (src/integrations/api-routes.ts), by the pattern Astro matched; undefined when no route answers it.
 */
export function requestedRoute(context: Pick<APIContext, 'params' | 'routePattern'>): RouteMatch | undefined {
  const rest = context.params.route;
  return matchRoute(rest !== undefined ? `/api/${rest}` : (context.routePattern ?? ''));
}

/**
 * Answers a request with its route's handler. The middleware has answered before any route
 * runs an address no route takes (with the site's not-found page) and a method its route does
 * not take (405); called without it, both get an empty 404.
 */
export function answerRoute(context: APIContext): Promise<Response> {
  const match = requestedRoute(context);
  const method = context.request.method.toUpperCase();
  if (!match || !(match.route.methods as readonly string[]).includes(method)) return Promise.resolve(new Response(null, { status: 404 }));
  const handler = HANDLERS[match.route.path] as RouteHandler<string>;
  return handler(context, match.params);
}
