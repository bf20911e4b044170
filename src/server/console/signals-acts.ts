import type { APIContext } from 'astro';
import { database } from '../db/database.ts';
import { ADMIT_REASON_MAX, type ReasonProblem } from '../../results/refused.ts';
import { changeExclusion, type ActDone, type ExclusionAct } from '../../results/tally/exclusions.ts';
import { may } from '../../survey/operators/operator-rights.ts';
import { callText, consoleCall } from './console-guard.ts';
import { done, refusal } from './console-replies.ts';
import { signedIn } from './console-acts.ts';
import { signedBy } from './sessions.ts';
import { surveyOfOperator } from './refused-page.ts';
import { isBallotId, signalsPath, signalsPlace, signalsQuery } from './signals-page.ts';

// "Exclude" and "Restore" on a survey's signals page: the console's side of `npm run results --
// exclude` and `include`, through the same function (changeExclusion,
// src/results/tally/exclusions.ts), signed by the operator.

/** What the "Reason" box is told when its text will not do, naming the box by its label. */
const REASON_WORDS: Record<ExclusionAct, Record<ReasonProblem, string>> = {
  exclude: {
    missing: 'Enter a reason: say why this ballot should not count.',
    too_long: `Reason must be ${ADMIT_REASON_MAX} characters or fewer.`,
    nul: 'Reason contains a NUL character (U+0000), which no text may hold: type it again.',
  },
  include: {
    missing: 'Enter a reason: say why this ballot should count again.',
    too_long: `Reason must be ${ADMIT_REASON_MAX} characters or fewer.`,
    nul: 'Reason contains a NUL character (U+0000), which no text may hold: type it again.',
  },
};

/** An act's time as the page writes it: `2027-03-02 14:05 UTC`. */
const at = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** The sentence of an act done already: by whom, when, why. */
const doneAlready = (what: string, act: ActDone) => `This ballot was ${what} already, by ${act.by} at ${at(act.at)}. Their reason: ${act.reason}`;

const UNKNOWN = 'This survey has no such ballot: it may have been purged since the look. Reload the page.';

/**
 * POST /api/console/surveys/{slug}/signals/ballots/{id}/exclude (or `/restore`): `reason` (and
 * `place`, the page to come back to). Takes the ballot out of the count, or puts it back, as
 * `results exclude` and `results include` do, for a reviewer and up; audited with the
 * operator's name, address, role and session. A survey the operator has no role on, and a ballot
 * it does not hold, answer 404; an auditor 403; a reason that will not do 400, naming the field;
 * an act done already (twice, or from two tabs at once) 409, naming who did it.
 */
export async function signalsBallotAct(context: APIContext, slug: string, id: string, act: ExclusionAct): Promise<Response> {
  const { request } = context;
  const call = consoleCall(request);
  const { session, operator } = signedIn(call);
  const found = surveyOfOperator(operator, slug);
  if (!found) return refusal(request, 404, 'unknown_survey', 'There is no such survey for you here.');
  const { survey, role } = found;
  if (!may(operator, 'review-signals', survey.slug))
    return refusal(request, 403, 'forbidden', 'Only a reviewer, a manager or an owner of this survey may exclude or restore a ballot.');
  if (!isBallotId(id)) return refusal(request, 404, 'unknown_ballot', UNKNOWN);
  const { db } = await database();
  const outcome = await changeExclusion(db, act, {
    projectId: survey.config.project_id,
    ballotId: id,
    why: callText(call, 'reason'),
    by: signedBy(operator, session, role),
    now: call.now,
  });
  switch (outcome.outcome) {
    case 'excluded':
    case 'included': {
      const back = signalsQuery(signalsPlace(new URLSearchParams(callText(call, 'place') ?? '')));
      const word = outcome.outcome === 'excluded' ? 'excluded' : 'restored';
      const cluster = callText(call, 'cluster') ?? '';
      const anchor = /^\d{1,9}$/.test(cluster) ? `#c${cluster}-${id}` : '';
      const page = `${signalsPath(survey.slug)}?${back ? `${back}&` : ''}${word}=${id}${anchor}`;
      return done(request, 200, { [word]: id, by: operator.name }, page);
    }
    case 'bad_reason': {
      const words = REASON_WORDS[act][outcome.problem];
      return refusal(request, 400, 'invalid_reason', words, {}, [{ path: 'reason', message: words }]);
    }
    case 'unknown_ballot':
      return refusal(request, 404, 'unknown_ballot', UNKNOWN);
    case 'excluded_already':
      return refusal(request, 409, 'excluded_already', doneAlready('excluded', outcome.done));
    case 'not_excluded':
      return refusal(
        request,
        409,
        'not_excluded',
        outcome.done ? doneAlready('restored', outcome.done) : 'This ballot is not excluded: it counts already, and there is nothing to restore.',
      );
  }
}
