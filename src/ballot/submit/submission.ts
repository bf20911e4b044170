import { apiUrl } from '../../survey/api/api-replies.ts';
import { ballotSummary } from '../../survey/ballots/ballot-input.ts';
import { isFinal } from '../../survey/ballots/ballot-answer.ts';
import { ballotEntries, collectBallot, userOf } from '../ballot.ts';
import { proofEntries } from '../verify/proof.ts';
import { endDraft } from '../drafts/draft.ts';
import { $link } from '../link.ts';
import type { PageSurvey } from '../validation.ts';
import { keepBallot, forgetBallot, reportOnce, retryLater, sendBallot, type QueuedBallot } from './outbox.ts';
import { deliveryOf, recordDelivery, type Delivery } from './delivery.ts';
import { $submission, $submitted, $thanksInPlace } from './submit-state.ts';
import { getLocale } from '../../i18n/messages.ts';
import { surveyPath } from '../../survey/config/translations.ts';

/** How long a failed submission's error report may hold up the way to the thank-you page. */
const REPORT_WAIT_MS = 2000;

/**
 * The submit flow once the ballot has passed its checks (submitBallot in src/ballot/store.ts runs
 * them): keep the finished ballot on the device; send it once; and go to the thank-you page
 * whatever the answer (docs/spec.md, "Submitting", "Sending").
 */
export async function deliverBallot(survey: PageSurvey): Promise<void> {
  const input = collectBallot(survey);
  const secret = $link.get().secret;
  const ballot: QueuedBallot = {
    key: crypto.randomUUID(),
    slug: survey.slug,
    url: apiUrl('/api/survey', { sheet: survey.google_sheet_title, secret, project_id: survey.project_id, project_type: survey.project_type }),
    entries: [...ballotEntries(input), ...proofEntries()],
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
  const report = reportOnce(ballot, verdict, { ballot: ballotSummary(input), user: userOf(input, survey, ballot.key), tags: { survey: survey.slug } }, kept);
  await Promise.race([report, new Promise((resolve) => setTimeout(resolve, REPORT_WAIT_MS))]);
  // The thank-you page in the page's language.
  const thankYouPath = surveyPath(survey, getLocale(), 'thankyou');
  const result: Delivery = deliveryOf(verdict, ballot.key) ?? { status: kept ? 'saved' : 'unsent', key: ballot.key };
  // The answers are done with once the ballot is in or on its way; a refused or lost one keeps them to try again.
  if (result.status === 'sent' || result.status === 'already' || result.status === 'saved') endDraft(result.status !== 'saved');
  recordDelivery(survey.slug, result);
  $submitted.set(result);
  if (verdict.kind === 'try-later' && verdict.offline) {
    // Offline, the thank-you page cannot load: show it here, at its own address.
    $thanksInPlace.set(true);
    history.pushState({ thanks: true }, '', thankYouPath);
    scrollTo(0, 0);
    $submission.set('idle');
    return;
  }
  location.assign(thankYouPath);
}
