import { atom } from 'nanostores';
import type { BallotVerdict } from '../survey/ballot-answer.ts';
import type { Problem } from '../survey/errors.ts';

/**
 * How the last submission of a survey ended, for its thank-you page: received (`sent`), kept on
 * the device to go later (`saved`), a ballot already in from this link (`already`), refused for
 * a rule (`refused`, with the API's reasons), or neither sent nor kept (`unsent`).
 */
export interface Outcome {
  status: 'sent' | 'saved' | 'already' | 'refused' | 'unsent';
  /** The ballot's idempotency key, to match a kept ballot's later answer. */
  key?: string;
  receipt?: unknown;
  refusal?: { message?: string; problems: Problem[] };
}

/** The sessionStorage key of a survey's last outcome. */
export const outcomeKey = (slug: string) => `peervote:outcome:${slug}`;

/** The slug of the outcome recorded last on this page, so a thank-you view shown in place can follow it. */
export const $outcomeChanged = atom<string | undefined>();

/** The outcome a final verdict gives; undefined for a verdict that leaves the ballot waiting. */
export function outcomeOf(verdict: BallotVerdict, key?: string): Outcome | undefined {
  if (verdict.kind === 'stored') return { status: 'sent', key, receipt: verdict.receipt };
  if (verdict.kind === 'already-received') return { status: 'already', key };
  if (verdict.kind === 'refused') return { status: 'refused', key, refusal: { message: verdict.message, problems: verdict.problems } };
  return undefined;
}

/** Records how a survey's submission ended; kept for the session, read by its thank-you page. */
export function recordOutcome(slug: string, outcome: Outcome): void {
  try {
    sessionStorage.setItem(outcomeKey(slug), JSON.stringify(outcome));
  } catch {
    // Private modes may refuse storage; the thank-you page then shows its plain thanks.
  }
  $outcomeChanged.set(undefined);
  $outcomeChanged.set(slug);
}

/** The last recorded outcome of a survey's submission, if any can be read. */
export function readOutcome(slug: string): Outcome | undefined {
  try {
    return JSON.parse(sessionStorage.getItem(outcomeKey(slug)) ?? 'null') ?? undefined;
  } catch {
    return undefined;
  }
}

/** Records the final answer to a ballot that was kept on this device and went out later, for its thank-you page. */
export function recordLateVerdict(slug: string, key: string, verdict: BallotVerdict): void {
  const last = readOutcome(slug);
  const outcome = outcomeOf(verdict, key);
  if (outcome && last?.status === 'saved' && (last.key === undefined || last.key === key)) recordOutcome(slug, outcome);
}
