import type { CodedProblem } from '../survey/errors.ts';
import { isVoteRequirement, voteRequirementMessage } from '../survey/ballots/votes.ts';
import { afterPress } from './fields/pointer-press.ts';
import { $notice, $submission } from './submit/submit-state.ts';
import { $attempted, $ballotSurvey, $editing, $failedSubmits, $problems, $takenTiles, $touched } from './validation.ts';
import { $voteCount, recountVotes } from './writeins/writeins.ts';
import { yieldToMain } from '../integrations/after-paint/yield-to-main.ts';

// The ballot page's store: the actions that reach across topics, which the islands and the page's
// own code (page.ts) call. Beneath it, one topic a file, the stores hold the state: answers,
// nominations, write-ins, reservations, the link, the checks' state (validation.ts), the drafts'
// (drafts/draft-state.ts) and the submit's (submit/submit-state.ts); ballot.ts gathers the ballot
// from them and empties them. Imports run downward only: nothing beneath imports this module, so it
// is the one that loads the lazy code (the ballot rules, the drafts and the submit flow), and that
// code never imports it back.

/** How long the not-enough-names notice stays (docs/spec.md, "Submitting"). */
const NOTICE_MS = 5000;

let checks: typeof import('./validation-rules.ts') | undefined;

/** Loads the ballot rules' code, once; the page asks for it as the voter first enters the ballot. */
export async function loadChecks(): Promise<typeof import('./validation-rules.ts')> {
  checks ??= await import('./validation-rules.ts');
  return checks;
}

function check(rules: typeof import('./validation-rules.ts')): CodedProblem[] {
  const survey = $ballotSurvey.get();
  if (!survey) return [];
  const problems = rules.checkBallot(survey, $takenTiles.get());
  const first: Record<string, string | undefined> = {};
  for (const problem of problems) if (!isVoteRequirement(problem)) first[problem.path] ??= problem.message;
  for (const name of Object.keys($problems.get())) if (!(name in first)) first[name] = undefined;
  $problems.set(first);
  return problems;
}

/** Checks the whole ballot as the server will, and records each name's first problem. */
async function validateNow(): Promise<CodedProblem[]> {
  const problems = check(await loadChecks());
  $editing.set({});
  return problems;
}

/** True when `name`'s problem, if any, is on screen. */
function showing(name: string): boolean {
  return Boolean(($attempted.get() || $touched.get()[name]) && !$editing.get()[name] && $problems.get()[name]);
}

/**
 * The voter changed the answer under `name` (a text input as they type): a problem on screen is
 * checked again at once, so it goes as soon as it is fixed; otherwise the answer is checked when left.
 */
export function edit(name: string): void {
  if (!showing(name)) {
    if (!$editing.get()[name]) $editing.setKey(name, true);
    return;
  }
  if (checks) check(checks);
}

/**
 * Marks a name as left by the voter, once the ballot has been checked again: its indicator
 * never shows a problem from before the last change. A problem that appears waits for the
 * tap under way to end, so the control the voter is tapping does not move from under them.
 */
export function touch(name: string): void {
  const mark = () =>
    afterPress(() => {
      if (checks) check(checks);
      $editing.setKey(name, false);
      $touched.setKey(name, true);
    });
  if (checks) mark();
  else void loadChecks().then(mark);
}

let deferred: Promise<typeof import('./submit/deferred.ts')> | undefined;

/**
 * Loads the drafts' and the submit flow's code (sending, the outbox, the delivery, the thank-you
 * view shown in place), once. The page asks for it when the voter starts on the ballot, while it
 * is online, and not with the page's first load.
 */
export function loadDeferred(): Promise<typeof import('./submit/deferred.ts')> {
  deferred ??= import('./submit/deferred.ts').catch((error: unknown) => {
    deferred = undefined;
    throw error;
  });
  return deferred;
}

let noticeTimer: ReturnType<typeof setTimeout> | undefined;

function showNotice(text: string): void {
  clearTimeout(noticeTimer);
  $notice.set(text);
  noticeTimer = setTimeout(() => $notice.set(undefined), NOTICE_MS);
}

/**
 * The voter's submit, for the survey the page carries: check every field, then the vote count;
 * a ballot that passes goes on to the submit flow's code (submit/submission.ts), which keeps it,
 * sends it and opens the thank-you page (docs/spec.md, "Submitting", "Sending"). Nothing happens until that code is here.
 */
export async function submitBallot(): Promise<void> {
  const survey = $ballotSurvey.get();
  if (!survey) return;
  const { deliverBallot } = await loadDeferred();
  if ($submission.get() === 'submitting') return;
  $submission.set('submitting');
  // The button says "Submitting…" at once; the checks, which may redraw the whole ballot, run in a task after the tap's.
  await yieldToMain();
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
  await deliverBallot(survey);
}

/** "Clear my answers": empties the ballot and deletes its draft from this device. */
export function clearMyAnswers(): void {
  void loadDeferred().then((later) => later.clearMyAnswers());
}
