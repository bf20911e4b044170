import { $queuedCount } from '../ballot/submit/outbox.ts';
import { $deliveryChanged, readDelivery, recordDelivery, type Delivery } from '../ballot/submit/delivery.ts';
import type { BallotReceipt } from '../survey/api/api-replies.ts';
import { refusalLines } from '../survey/ballots/ballot-answer.ts';
import type { OutcomeField } from '../survey/ballots/tiles.ts';
import { outcomeLine } from '../survey/ballots/reservation-outcome.ts';
import { formatReceipt } from '../survey/published/receipt-code.ts';
import { replacedSentence } from '../survey/people/verification.ts';

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
  const show = (delivery?: Delivery) => {
    showReceipt(delivery);
    const shown = delivery?.status === 'already' && delivery.byAddress ? 'already-address' : delivery?.status;
    for (const line of root.querySelectorAll<HTMLElement>('[data-outcome]')) line.hidden = line.dataset.outcome !== shown;
    // Why the ballot was refused, in the API's sentences and the fields' labels.
    refusal.replaceChildren(
      ...(delivery?.status === 'refused' ? refusalLines(delivery.refusal ?? { problems: [] }, labels) : []).map((text) => paragraph('', text, 'li')),
    );
    // What became of the reservations, from the API's receipt: the tile by its title, a lost one said plainly.
    const receipt = delivery?.status === 'sent' ? (delivery.receipt as BallotReceipt | undefined) : undefined;
    // A ballot that took the place of the voter's earlier one says which.
    const replaced = root.querySelector<HTMLElement>('[data-replaced]')!;
    replaced.hidden = !receipt?.replaced_sent_at;
    replaced.textContent = receipt?.replaced_sent_at ? replacedSentence(receipt.replaced_sent_at) : '';
    outcomes.replaceChildren(
      ...(receipt?.reservations ?? []).map((reservation) => {
        const { status, text } = outcomeLine(reservation, fields);
        return paragraph(`outcome outcome-reservation outcome-${status}`, text);
      }),
    );
  };
  // The receipt code, from the API's answer, with a link that checks it.
  const receiptBlock = root.querySelector<HTMLElement>('[data-receipt]')!;
  const showReceipt = (delivery?: Delivery) => {
    const code = delivery?.status === 'sent' ? (delivery.receipt as Partial<BallotReceipt> | undefined)?.receipt : undefined;
    receiptBlock.hidden = !code;
    if (!code) return;
    root.querySelector('[data-receipt-code]')!.textContent = formatReceipt(code);
    root.querySelector<HTMLAnchorElement>('[data-receipt-link]')!.search = `?code=${encodeURIComponent(formatReceipt(code))}`;
  };
  show(readDelivery(slug));
  // A kept ballot's later answer (sent from this page too) is recorded by the outbox's listener.
  $deliveryChanged.listen((changed) => changed === slug && show(readDelivery(slug)));
  // A ballot that left this device elsewhere (another tab) leaves the queue empty: it went.
  $queuedCount.subscribe((count) => {
    const delivery = readDelivery(slug);
    if (delivery?.status === 'saved' && count === 0) recordDelivery(slug, { ...delivery, status: 'sent' });
  });
}
