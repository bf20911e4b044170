import type { APIContext } from 'astro';
import { database } from '../db/database.ts';
import { nomineeIndex } from '../search/nominees.ts';
import { ADMIT_REASON_MAX, admitReason, type ReasonProblem } from '../../results/refused.ts';
import { OperatorError } from '../../results/operator.ts';
import { DecidedAlready, DecidedOtherwise, resolveWriteIn, type Resolution } from '../../results/writeins/writeins.ts';
import { writeInGroupId } from '../intake/write-in-counts.repository.ts';
import { nameKey } from '../../survey/nominees/name-key.ts';
import { CONSOLE_ACTS, may } from '../../survey/operators/operator-rights.ts';
import { callText, consoleCall } from './console-guard.ts';
import { done, refusal } from './console-replies.ts';
import { checkAgain, signedIn } from './console-acts.ts';
import { signedBy } from './sessions.ts';
import { recentlyReauthenticated } from './sessions.ts';
import { surveyOfOperator } from './refused-page.ts';
import { groupAddress, NEW_NOMINEE_NAME_MAX } from './write-ins-page.ts';

// "Attach", "Add as a new nominee" and "Undo" on a survey's write-ins page: the console's side of
// `npm run results -- writeins resolve`, through the same function (resolveWriteIn,
// src/results/writeins/writeins.ts), signed by the operator.

/** The three acts, and the decision each records. */
export type WriteInAct = 'attach' | 'add' | 'undo';

/** What the "Reason" box is told when its text will not do, naming the box by its label. */
const REASON_WORDS: Record<ReasonProblem, string> = {
  missing: 'Enter a reason: say why, for the audit trail.',
  too_long: `Reason must be ${ADMIT_REASON_MAX} characters or fewer.`,
  nul: 'Reason contains a NUL character (U+0000), which no text may hold: type it again.',
};

/** A nominee id as the nominee list writes them. */
const NOMINEE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The longest text a group is named by (its spelling, its category): no write-in is longer. */
const GROUP_TEXT_MAX = 500;

/** A field's text when it is plain text of at most `max` characters without NUL; else undefined. */
function plainText(value: string | undefined, max: number): string | undefined {
  return value !== undefined && value.trim() !== '' && value.length <= max && !value.includes('\u0000') ? value : undefined;
}

/** One field's problem: the 400 that names it. */
function fieldProblem(request: Request, error: string, path: string, message: string): Response {
  return refusal(request, 400, error, message, {}, [{ path, message }]);
}

/**
 * POST /api/console/surveys/{slug}/write-ins/{attach|add|undo}: `category` and `name` (the group,
 * as `writeins resolve` takes them), `reason`, and `nominee` (attach) or `display_name` (add, when
 * not the group's own). Records the decision as `writeins resolve` does, for a reviewer and up,
 * signed with the operator's name, address, role and session. A survey the operator has no role on
 * answers 404; an auditor 403; a field that will not do, or a write-in or nominee the survey
 * does not have, 400, naming it; the same decision again
 * (or an undo with nothing to undo), or an Attach or Add on a group decided since, 409, changing nothing.
 */
export async function decideWriteIn(context: APIContext, slug: string, act: WriteInAct): Promise<Response> {
  const { request } = context;
  const call = consoleCall(request);
  const { session, operator } = signedIn(call);
  const found = surveyOfOperator(operator, slug);
  if (!found) return refusal(request, 404, 'unknown_survey', 'There is no such survey for you here.');
  const { survey, role } = found;
  if (!may(operator, 'review-writeins', survey.slug))
    return refusal(request, 403, 'forbidden', 'Only a reviewer, a manager or an owner of this survey may decide on write-ins.');

  const name = plainText(callText(call, 'name'), GROUP_TEXT_MAX);
  const category = plainText(callText(call, 'category'), GROUP_TEXT_MAX);
  if (!name || !category || !nameKey(name))
    return refusal(request, 400, 'invalid_write_in', 'The write-in is not named as the page names it: reload the page and try again.');
  const reason = admitReason(callText(call, 'reason'));
  if ('problem' in reason) return fieldProblem(request, 'invalid_reason', 'reason', REASON_WORDS[reason.problem]);

  let resolution: Resolution;
  if (act === 'attach') {
    const nominee = callText(call, 'nominee') ?? '';
    if (!NOMINEE_ID.test(nominee)) return fieldProblem(request, 'invalid_nominee', 'nominee', 'Choose a nominee: search for one, then press Attach beside it.');
    resolution = { action: 'merge', nomineeId: nominee };
  } else if (act === 'add') {
    const given = callText(call, 'display_name') ?? '';
    if (given.includes('\u0000') || [...given].length > NEW_NOMINEE_NAME_MAX)
      return fieldProblem(
        request,
        'invalid_name',
        'display_name',
        `Name on the list must be ${NEW_NOMINEE_NAME_MAX} characters or fewer, without a NUL character (U+0000).`,
      );
    resolution = { action: 'new', ...(given.trim() ? { name: given.trim() } : {}) };
  } else resolution = { action: 'undo' };
  if (CONSOLE_ACTS['review-writeins'].sensitive && !recentlyReauthenticated(session, call.now)) return checkAgain(request);

  const { db } = await database();
  let decided;
  try {
    decided = await resolveWriteIn(db, survey.config, nomineeIndex(survey).list, {
      name,
      category,
      resolution,
      by: signedBy(operator, session, role),
      note: reason.reason,
      now: call.now,
      // Attach and Add are offered on a group the page showed waiting: one decided since is not decided over.
      seenWaiting: act !== 'undo',
    });
  } catch (error) {
    if (error instanceof DecidedAlready) return refusal(request, 409, 'decided_already', error.message);
    if (error instanceof DecidedOtherwise) return refusal(request, 409, 'decided_otherwise', error.message);
    if (error instanceof OperatorError) return refusal(request, 400, 'not_decided', error.message);
    throw error;
  }
  const [row] = decided;
  const id = writeInGroupId(row.category_group, row.subcategory, row.name_key);
  return done(
    request,
    200,
    { decided: row.action, nominee_id: row.nominee_id, categories: decided.map((one) => `${one.category_group} / ${one.subcategory}`), at: row.decided_at },
    groupAddress(survey.slug, id, { done: act === 'undo' ? 'undo' : 'attach' }),
  );
}
