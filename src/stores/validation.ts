import { atom, map } from 'nanostores';
import type { BallotSurvey } from '../survey/ballot.struct.ts';
import type { Problem } from '../survey/errors.ts';
import type { ReservationKind } from '../survey/tiles.ts';

/** The survey the ballot is checked against, registered by the submit island. */
export const $ballotSurvey = atom<BallotSurvey | undefined>();

/** The first problem of each form-data name, as of the last check. */
export const $problems = map<Record<string, string | undefined>>({});

/** Names the voter has left at least once; their problems show from then on. */
export const $touched = map<Record<string, boolean>>({});

/** True once the voter has tried to submit: every problem shows from then on. */
export const $attempted = atom(false);

/** Tiles the reservation look-ups reported taken, so a ballot does not claim them. */
export const $takenTiles = map<Partial<Record<ReservationKind, string[]>>>({});

let checks: typeof import('./ballot-check.ts') | undefined;

/** Loads the ballot rules' code, once; the page asks for it when idle after loading. */
export async function loadChecks(): Promise<typeof import('./ballot-check.ts')> {
  checks ??= await import('./ballot-check.ts');
  return checks;
}

function check(rules: typeof import('./ballot-check.ts')): Problem[] {
  const survey = $ballotSurvey.get();
  if (!survey) return [];
  const problems = rules.checkBallot(survey, $takenTiles.get());
  const first: Record<string, string | undefined> = {};
  for (const problem of problems) first[problem.path] ??= problem.message;
  for (const name of Object.keys($problems.get())) if (!(name in first)) first[name] = undefined;
  $problems.set(first);
  return problems;
}

/** Checks the whole ballot as the server will, and records each name's first problem. */
export async function validateNow(): Promise<Problem[]> {
  return check(await loadChecks());
}

/**
 * Marks a name as left by the voter, once the ballot has been checked again: its indicator
 * never shows a problem from before the last change (nor shifts the page while the voter taps).
 */
export function touch(name: string): void {
  if (checks) {
    check(checks);
    $touched.setKey(name, true);
  } else {
    void validateNow().then(() => $touched.setKey(name, true));
  }
}
