import { receiveBallot } from './ballot-intake.ts';
import { adaptClassicForm, classicAnswer, isClassicPost } from './classic-form.ts';

/**
 * Answers `POST /api/survey`: 201 with a receipt, or a 4xx naming every offending field (see
 * docs/api.md). A form posted without JavaScript gets 303 to the thank-you page, or an HTML
 * page of problems.
 */
export async function answerBallotPost(request: Request, clientAddress: string): Promise<Response> {
  if (!isClassicPost(request)) return receiveBallot(request, clientAddress);
  return classicAnswer(await receiveBallot(request, clientAddress, { adaptForm: adaptClassicForm }), request);
}
