/** How the last submission of a survey ended, for its thank-you page. */
export interface Outcome {
  status: 'sent' | 'saved' | 'refused' | 'unsent';
  receipt?: unknown;
}

/** The sessionStorage key of a survey's last outcome. */
export const outcomeKey = (slug: string) => `peervote:outcome:${slug}`;

/** Records how a survey's submission ended; kept for the session, read by its thank-you page. */
export function recordOutcome(slug: string, outcome: Outcome): void {
  try {
    sessionStorage.setItem(outcomeKey(slug), JSON.stringify(outcome));
  } catch {
    // Private modes may refuse storage; the thank-you page then shows its plain thanks.
  }
}

/** The last recorded outcome of a survey's submission, if any can be read. */
export function readOutcome(slug: string): Outcome | undefined {
  try {
    return JSON.parse(sessionStorage.getItem(outcomeKey(slug)) ?? 'null') ?? undefined;
  } catch {
    return undefined;
  }
}

/** Records the receipt of a ballot that was kept on this device and went out later, for its thank-you page. */
export function recordLateReceipt(slug: string, receipt: unknown): void {
  if (readOutcome(slug)?.status === 'saved') recordOutcome(slug, { status: 'sent', receipt });
}
