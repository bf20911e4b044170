import type { APIContext } from 'astro';
import { serverConfig } from '../config.ts';
import { json, refuse } from '../http.ts';
import type { Problem } from '../../survey/errors.ts';
import { plainPage, wantsPage } from '../html-page.ts';
import { requestHashes } from '../intake/signals-salt.ts';
import type { CeremonyRefusal } from './passkeys.ts';
import { agentWords } from './agent.ts';
import { CONSOLE_AUDIT_PROJECT } from './enrolment.ts';

// How the console's endpoints answer: JSON for the pages' script, a redirect or a plain page for
// a form posted without it, and the words of each refusal.

/** A refusal: JSON in the API's error shape (with the fields' problems, when a field is wrong), or a plain page for a form posted without script. */
export function refusal(
  request: Request,
  status: number,
  error: string,
  message: string,
  headers: Record<string, string> = {},
  problems: Problem[] = [],
): Response {
  if (!wantsPage(request)) return refuse(status, error, message, problems, headers);
  return plainPage({
    status,
    site: 'Peervote console',
    title: 'There is a problem',
    text: message,
    html: '<p><a class="button" href="/console/">Back to the console</a></p>',
    headers,
  });
}

/** Done: JSON for a script, a 303 to the page that shows it for a form. */
export function done(request: Request, status: number, body: Record<string, unknown>, page: string, headers: Record<string, string> = {}): Response {
  if (wantsPage(request)) return new Response(null, { status: 303, headers: { Location: page, ...headers } });
  return json(status, body, headers);
}

/** What the sign-in log keeps of the client: a keyed hash of its address, and its browser in words. */
export function clientFacts(context: APIContext): { clientHash: string | null; agent: string | null } {
  const { clientHash } = requestHashes(context.request, context.clientAddress, serverConfig(), CONSOLE_AUDIT_PROJECT);
  return { clientHash: clientHash ?? null, agent: agentWords(context.request.headers.get('user-agent')) };
}

/** Words for each refusal of a ceremony, for the operator. */
export const CEREMONY_WORDS: Record<CeremonyRefusal | 'not_an_operator', string> = {
  unknown_ceremony: 'This sign-in was not started here, or was used already: try again.',
  expired_ceremony: 'This sign-in took too long: try again.',
  unknown_passkey: 'This passkey belongs to no operator of this console.',
  not_your_passkey: 'This passkey is not yours.',
  not_verified: 'The passkey could not be verified: try again.',
  not_an_operator: 'This passkey belongs to no operator of this console.',
};
