import { apiUrl } from '../../survey/api-url.ts';
import { isVoteRequirement, voteRequirementMessage } from '../../survey/vote-requirement.ts';
import type { BallotSurvey } from '../../survey/ballot.struct.ts';
import { ballotEntries, collectBallot, voterOf } from '../ballot.ts';
import { ballotSummary } from '../../survey/ballot-input.ts';
import { $link } from '../link.ts';
import { keepBallot, forgetBallot, reportOnce, retryLater, sendBallot, type QueuedBallot } from './outbox.ts';
import { deliveryOf, recordDelivery, type Delivery } from './delivery.ts';
import { $notice, $submission, $submitted, $thanksInPlace } from './submit-state.ts';
import { isFinal } from '../../survey/ballot-answer.ts';
import { endDraft } from '../drafts/draft.ts';
import { $attempted, $failedSubmits, validateNow } from '../validation.ts';
import { $voteCount, recountVotes } from '../writeins/writeins.ts';

/** How long the not-enough-names notice stays (docs/spec.md, "Submitting"). */
const NOTICE_MS = 5000;

/** How long a failed submission's error report may hold up the way to the thank-you page. */
const REPORT_WAIT_MS = 2000;

/** What the submit flow needs of a survey besides its ballot rules. */
export interface SubmitSurvey {
  slug: string;
  project_id: string;
  project_type: string;
  google_sheet_title?: string;
}
export { $submitted } from './submit-state.ts';

let noticeTimer: ReturnType<typeof setTimeout> | undefined;

function showNotice(text: string): void {
  clearTimeout(noticeTimer);
  $notice.set(text);
  noticeTimer = setTimeout(() => $notice.set(undefined), NOTICE_MS);
}

/**
 * The submit flow: check every field, then the vote count; keep the finished ballot on the
 * device; send it once; and go to the thank-you page whatever the answer (docs/spec.md, "Submitting", "Sending").
 */
export async function submitBallot(survey: BallotSurvey & SubmitSurvey): Promise<void> {
  if ($submission.get() === 'submitting') return;
  $submission.set('submitting');
  $attempted.set(true);
  recountVotes();
  const problems = (await validateNow()).filter((problem) => !isVoteRequirement(problem));
  if (problems.length > 0) {
    $submission.set('idle');
    // The error summary at the top of the ballot takes focus and links to each field.
    $failedSubmits.set($failedSubmits.get() + 1);
    return;
  }
  if ($voteCount.get() < survey.vote_requirement) {
    $submission.set('idle');
    showNotice(voteRequirementMessage(survey.vote_requirement));
    return;
  }

  const input = collectBallot(survey);
  const secret = $link.get().secret;
  const ballot: QueuedBallot = {
    key: crypto.randomUUID(),
    slug: survey.slug,
    url: apiUrl('/api/survey', { sheet: survey.google_sheet_title, secret, project_id: survey.project_id, project_type: survey.project_type }),
    entries: ballotEntries(input),
    createdAt: Date.now(),
  };
  let kept = true;
  await keepBallot(ballot).catch((error: unknown) => {
    kept = false;
    console.error('The ballot could not be kept on this device.', error);
  });
  const verdict = await sendBallot(ballot);
  if (isFinal(verdict) && kept) await forgetBallot(ballot.key).catch(() => {});
  else if (kept) retryLater();
  // The report leaves before the page does (the thank-you page would cut it off), within REPORT_WAIT_MS.
  const report = reportOnce(ballot, verdict, { ballot: ballotSummary(input), user: voterOf(input, survey, ballot.key), tags: { survey: survey.slug } }, kept);
  await Promise.race([report, new Promise((resolve) => setTimeout(resolve, REPORT_WAIT_MS))]);
  const result: Delivery = deliveryOf(verdict, ballot.key) ?? { status: kept ? 'saved' : 'unsent', key: ballot.key };
  // The answers are done with once the ballot is in or on its way; a refused or lost one keeps them to try again.
  if (result.status === 'sent' || result.status === 'already' || result.status === 'saved') endDraft(result.status !== 'saved');
  recordDelivery(survey.slug, result);
  $submitted.set(result);
  if (verdict.kind === 'try-later' && verdict.offline) {
    // Offline, the thank-you page cannot load: show it here, at its own address.
    $thanksInPlace.set(true);
    history.pushState({ thanks: true }, '', `/${survey.slug}/thankyou`);
    scrollTo(0, 0);
    $submission.set('idle');
    return;
  }
  location.assign(`/${survey.slug}/thankyou`);
}
