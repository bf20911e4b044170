import type { APIRoute } from 'astro';
import { receiveBallot } from '../../../server/intake/ballot-intake.ts';
import { classicAnswer, isClassicPost, adaptClassicForm } from '../../../server/intake/classic-form.ts';

export const prerender = false;

/**
 * Receives a ballot: 201 with a receipt, or a 4xx naming every offending field (see docs/api.md).
 * A form posted without JavaScript gets 303 to the thank-you page, or an HTML page of problems.
 */
export const POST: APIRoute = async ({ request, clientAddress }) => {
  if (!isClassicPost(request)) return receiveBallot(request, clientAddress);
  return classicAnswer(await receiveBallot(request, clientAddress, { adaptForm: adaptClassicForm }), request);
};
