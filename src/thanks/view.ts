import { $queuedCount } from '../stores/outbox.ts';
import { $outcomeChanged, readOutcome, recordOutcome, type Outcome } from '../stores/outcome.ts';
import type { BallotReceipt } from '../survey/api-answers.ts';
import { refusalLines } from '../survey/ballot-answer.ts';
import { outcomeLine, type OutcomeField } from '../survey/reservation-outcome.ts';
import { formatReceipt } from '../survey/receipt-code.ts';

/** Shows on the thank-you view how the last submission of its survey ended, and follows it as a kept ballot's answer comes in. */
export function startThankYou(root: HTMLElement): void {
  const slug = root.dataset.slug!;
  const fields = JSON.parse(root.dataset.reservations!) as OutcomeField[];
  const labels = JSON.parse(root.dataset.labels!) as Record<string, string>;
  const outcomes = root.querySelector<HTMLElement>('[data-reservation-outcomes]')!;
  const refusal = root.querySelector<HTMLElement>('[data-refusal]')!;
  const paragraph = (className: string, text: string, tag = 'p') => {
    const line = document.createElement(tag);
    line.className = className;
    line.textContent = text;
    return line;
  };
  const show = (outcome?: Outcome) => {
    showReceipt(outcome);
    for (const line of root.querySelectorAll<HTMLElement>('[data-outcome]')) line.hidden = line.dataset.outcome !== outcome?.status;
    // Why the ballot was refused, in the API's sentences and the fields' labels.
    refusal.replaceChildren(...(outcome?.status === 'refused' ? refusalLines(outcome.refusal ?? { problems: [] }, labels) : []).map((text) => paragraph('', text, 'li')));
    // What became of the reservations, from the API's receipt: the tile by its title, a lost one said plainly.
    const receipt = outcome?.status === 'sent' ? (outcome.receipt as BallotReceipt | undefined) : undefined;
    outcomes.replaceChildren(
      ...(receipt?.reservations ?? []).map((reservation) => {
        const { status, text } = outcomeLine(reservation, fields);
        return paragraph(`outcome outcome-reservation outcome-${status}`, text);
      }),
    );
  };
  // The receipt code, from the API's answer, with a link that checks it.
  const receiptBlock = root.querySelector<HTMLElement>('[data-receipt]')!;
  const showReceipt = (outcome?: Outcome) => {
    const code = outcome?.status === 'sent' ? (outcome.receipt as Partial<BallotReceipt> | undefined)?.receipt : undefined;
    receiptBlock.hidden = !code;
    if (!code) return;
    root.querySelector('[data-receipt-code]')!.textContent = formatReceipt(code);
    root.querySelector<HTMLAnchorElement>('[data-receipt-link]')!.search = `?code=${encodeURIComponent(formatReceipt(code))}`;
  };
  show(readOutcome(slug));
  // A kept ballot's later answer (sent from this page too) is recorded by the outbox's listener.
  $outcomeChanged.listen((changed) => changed === slug && show(readOutcome(slug)));
  // A ballot that left this device elsewhere (another tab) leaves the queue empty: it went.
  $queuedCount.subscribe((count) => {
    const outcome = readOutcome(slug);
    if (outcome?.status === 'saved' && count === 0) recordOutcome(slug, { ...outcome, status: 'sent' });
  });
}
