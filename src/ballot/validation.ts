import { atom, map } from 'nanostores';
import type { BallotSurvey } from '../survey/ballot.struct.ts';
import type { SubmitSurvey } from './submit/submission.ts';
import type { CodedProblem } from '../survey/errors.ts';
import { isVoteRequirement } from '../survey/vote-requirement.ts';
import type { ReservationKind } from '../survey/tiles.ts';
import { afterPress } from './fields/pointer-press.ts';

/** What the browser checks a ballot against and sends it with: the survey's ballot rules and address. */
export type PageSurvey = BallotSurvey & SubmitSurvey;

/** Reads the survey the page carries as data (`data-survey` on the survey's root, SurveyHome.astro). */
function pageSurvey(): PageSurvey | undefined {
  if (typeof document === 'undefined') return undefined;
  const data = document.getElementById('survey-root')?.dataset.survey;
  return data ? (JSON.parse(data) as PageSurvey) : undefined;
}

/** The survey the ballot is checked against, read from the page as this module loads: checks work before any island has run. */
export const $ballotSurvey = atom<PageSurvey | undefined>(pageSurvey());

/**
 * The first problem of each form-data name, as of the last check, shown at its field and in the
 * error summary. Too few names is left out: the notice by the submit button tells it (docs/spec.md, "Submitting").
 */
export const $problems = map<Record<string, string | undefined>>({});

/** Names the voter has left at least once; their problems show from then on. */
export const $touched = map<Record<string, boolean>>({});

/** True once the voter has tried to submit: every problem shows from then on. */
export const $attempted = atom(false);

/**
 * Names being edited that had no problem showing when the edit began: their new problems (and
 * their check) wait until the voter leaves them, while a problem that was showing clears as soon
 * as it is fixed ("reward early, punish late").
 */
export const $editing = map<Record<string, boolean>>({});

/** Counts failed submits; the error summary takes focus each time it changes. */
export const $failedSubmits = atom(0);

/** Tiles the reservation look-ups reported taken, so a ballot does not claim them. */
export const $takenTiles = map<Partial<Record<ReservationKind, string[]>>>({});

let checks: typeof import('./validation-rules.ts') | undefined;

/** Loads the ballot rules' code, once; the page asks for it when idle after loading. */
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
export async function validateNow(): Promise<CodedProblem[]> {
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
