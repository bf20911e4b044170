import { atom, map } from 'nanostores';
import type { BallotSurvey } from '../survey/ballots/ballot.struct.ts';
import type { ReservationKind } from '../survey/ballots/tiles.ts';
import type { SubmitSurvey } from './submit/submit-state.ts';

// The checks' state, a topic store like the others: what the last check found and what the voter has
// done that decides when it shows. The checks themselves (edit, touch, the submit's) are actions of
// the page's store, src/ballot/store.ts, since they read the whole ballot.

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
