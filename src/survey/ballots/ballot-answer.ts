import type { ApiErrorBody, BallotReceipt } from '../api/api-replies.ts';
import type { Problem } from '../errors.ts';

/**
 * What one answer of `POST /api/survey` means for the voter: the one reading shared by the
 * submit flow, the device outbox and the thank-you page (docs/api.md).
 * - `stored`: the ballot is in (201);
 * - `already-received`: this personal link has voted already (409 `already_submitted`): final;
 * - `in-progress`: an earlier try with the same key is still being stored (409 `request_in_progress`): retry;
 * - `refused`: refused for a rule (any other 4xx but 429): final, with the reasons in the voter's words;
 * - `try-later`: the API is busy or down, or the network failed (429, 5xx, no answer): retry.
 */
export type BallotVerdict =
  | { kind: 'stored'; receipt: BallotReceipt }
  | { kind: 'already-received'; byAddress?: boolean }
  | { kind: 'in-progress' }
  | { kind: 'refused'; status: number; message?: string; problems: Problem[] }
  | { kind: 'try-later'; reason: string; offline: boolean };

/** One answer as the browser got it: a status with its parsed body, or no answer at all. */
export type BallotAnswer = { status: number; body: unknown } | { networkError: string };

/** The verdicts after which the ballot is never sent again. */
const FINAL = new Set<BallotVerdict['kind']>(['stored', 'already-received', 'refused']);

function errorBody(body: unknown): Partial<ApiErrorBody> {
  return body && typeof body === 'object' ? (body as Partial<ApiErrorBody>) : {};
}

function problemsOf(body: Partial<ApiErrorBody>): Problem[] {
  if (!Array.isArray(body.problems)) return [];
  return body.problems.filter((p): p is Problem => Boolean(p) && typeof p.path === 'string' && typeof p.message === 'string');
}

/** Reads one answer of the survey API into what it means for the voter. */
export function classifyAnswer(answer: BallotAnswer): BallotVerdict {
  if ('networkError' in answer) return { kind: 'try-later', reason: answer.networkError, offline: true };
  const { status } = answer;
  const body = errorBody(answer.body);
  if (status >= 200 && status < 300) {
    const receipt = answer.body && typeof answer.body === 'object' ? (answer.body as BallotReceipt) : { ballot_id: '', receipt: '', reservations: [] };
    return { kind: 'stored', receipt: { ...receipt, reservations: Array.isArray(receipt.reservations) ? receipt.reservations : [] } };
  }
  // A verified address that has voted names the proof, not the link, as what was used.
  if (status === 409 && body.error === 'already_submitted')
    return problemsOf(body).some((problem) => problem.path === 'verification') ? { kind: 'already-received', byAddress: true } : { kind: 'already-received' };
  // A 409 of any other kind comes from the idempotency lock: the same ballot is still being stored.
  if (status === 409) return { kind: 'in-progress' };
  if (status === 429 || status >= 500 || status < 400) return { kind: 'try-later', reason: `HTTP ${status}`, offline: false };
  return { kind: 'refused', status, message: typeof body.message === 'string' ? body.message : undefined, problems: problemsOf(body) };
}

/** True when the ballot must never be sent again after this verdict. */
export function isFinal(verdict: BallotVerdict): boolean {
  return FINAL.has(verdict.kind);
}

/**
 * The reasons of a refusal as the voter reads them: the API's sentence, then each problem once
 * (`problemLine`). A problem about something that is not a field (the link, a header) is
 * already said by the sentence.
 */
export function refusalLines(verdict: { message?: string; problems: Problem[] }, labels: Record<string, string>): string[] {
  const lines = verdict.message ? [verdict.message] : [];
  for (const problem of verdict.problems) {
    const line = problemLine(problem, labels[problem.path]);
    if (line && !lines.includes(line)) lines.push(line);
  }
  return lines;
}

/**
 * One problem as the voter reads it: a whole sentence (the ballot's messages name their field,
 * src/survey/ballots/field-messages.ts) as it is; a fragment ("is not valid.") after the label of what
 * it is about, or nothing when no label is known (a form-data name or a header means nothing to a voter).
 */
export function problemLine(problem: Problem, label: string | undefined): string | undefined {
  if (/^[A-Z“"]/.test(problem.message)) return problem.message;
  return label ? `${label}: ${problem.message}` : undefined;
}
