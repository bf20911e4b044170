import type { APIContext } from 'astro';
import { database } from '../db/database.ts';
import { findRefusedBallot } from '../intake/refused-ballots.repository.ts';
import { ADMIT_REASON_MAX, admitReason, admitRefused, type AdmitOutcome, type ReasonProblem } from '../../results/refused.ts';
import { CONSOLE_ACTS, may } from '../../survey/operators/operator-rights.ts';
import { callText, consoleCall } from './console-guard.ts';
import { done, refusal } from './console-replies.ts';
import { checkAgain, signedIn } from './console-acts.ts';
import { recentlyReauthenticated, signedBy } from './sessions.ts';
import { isRefusedId, placeOf, placeQuery, refusedPath, surveyOfOperator } from './refused-page.ts';

// "Admit" on a survey's refused ballots page: the console's side of `npm run results -- admit`,
// through the same function (admitRefused, src/results/refused.ts), signed by the operator.

/** What the "Reason" box is told when its text will not do, naming the box by its label. */
const REASON_WORDS: Record<ReasonProblem, string> = {
  missing: 'Enter a reason: say why this ballot should be counted.',
  too_long: `Reason must be ${ADMIT_REASON_MAX} characters or fewer.`,
  nul: 'Reason contains a NUL character (U+0000), which no text may hold: type it again.',
};

/** The sentence of a ballot admitted already: by whom, when, as which ballot. */
function admittedAlready(admission: Extract<AdmitOutcome, { outcome: 'admitted_already' }>): string {
  const at = `${admission.at.slice(0, 10)} ${admission.at.slice(11, 16)} UTC`;
  return `This ballot was admitted already, by ${admission.by} at ${at}, as ballot ${admission.ballotId}: it is counted.`;
}

/**
 * POST /api/console/surveys/{slug}/refused/{id}/admit: `reason` (and `place`, the page to come
 * back to). Admits the refused ballot as `results admit` does, after a passkey check in the
 * last five minutes, for a reviewer and up; audited with the operator's name, address, role and
 * session. A survey the operator has no role on, and an id it does not hold, answer 404; an
 * auditor 403; a reason that will not do 400, naming the field; an admission made already 409.
 */
export async function admitRefusedBallot(context: APIContext, slug: string, id: string): Promise<Response> {
  const { request } = context;
  const call = consoleCall(request);
  const { session, operator } = signedIn(call);
  const found = surveyOfOperator(operator, slug);
  if (!found) return refusal(request, 404, 'unknown_survey', 'There is no such survey for you here.');
  const { survey, role } = found;
  if (!may(operator, 'admit-refused', survey.slug))
    return refusal(request, 403, 'forbidden', 'Only a reviewer, a manager or an owner of this survey may admit a refused ballot.');
  const { db } = await database();
  const row = isRefusedId(id) ? await findRefusedBallot(db, survey.config.project_id, id) : undefined;
  if (!row) return refusal(request, 404, 'unknown_refused_ballot', 'This survey has no such refused ballot: it may have been purged. Reload the page.');
  const reason = admitReason(callText(call, 'reason'));
  if ('problem' in reason) {
    const problems = [{ path: 'reason', message: REASON_WORDS[reason.problem] }];
    return refusal(request, 400, 'invalid_reason', REASON_WORDS[reason.problem], {}, problems);
  }
  if (row.admitted_at)
    return refusal(
      request,
      409,
      'admitted_already',
      admittedAlready({ outcome: 'admitted_already', ballotId: row.ballot_id ?? '', by: row.admitted_by ?? '', at: row.admitted_at }),
    );
  if (CONSOLE_ACTS['admit-refused'].sensitive && !recentlyReauthenticated(session, call.now)) return checkAgain(request);

  const admitted = await admitRefused(db, survey, { id: row.id, why: reason.reason, by: signedBy(operator, session, role), now: call.now });
  switch (admitted.outcome) {
    case 'admitted': {
      const back = placeQuery(placeOf(new URLSearchParams(callText(call, 'place') ?? '')));
      const page = `${refusedPath(survey.slug)}?${back ? `${back}&` : ''}admitted=${admitted.refusedId}#ballot-${admitted.refusedId}`;
      return done(request, 200, { admitted: admitted.refusedId, ballot_id: admitted.ballotId, at: admitted.at }, page);
    }
    case 'admitted_already':
      return refusal(request, 409, 'admitted_already', admittedAlready(admitted));
    case 'link_has_ballot':
      return refusal(
        request,
        409,
        'link_has_ballot',
        'This ballot came by a personal link that has a ballot already, and a link holds one ballot: it cannot be admitted.',
      );
    case 'unknown':
      return refusal(request, 404, 'unknown_refused_ballot', 'This survey has no such refused ballot: it may have been purged. Reload the page.');
    case 'bad_reason':
      return refusal(request, 400, 'invalid_reason', REASON_WORDS[admitted.problem], {}, [{ path: 'reason', message: REASON_WORDS[admitted.problem] }]);
  }
}
