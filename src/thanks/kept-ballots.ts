import { $staleBallots, downloadBallot, resendBallot, startOutbox } from '../ballot/submit/outbox.ts';

let day: Intl.DateTimeFormat | undefined;

/** A kept ballot's time as the box says it; the format is built at its first use, as building one costs tens of milliseconds. */
function dayText(time: number): string {
  day ??= new Intl.DateTimeFormat('en', { dateStyle: 'long', timeStyle: 'short' });
  return day.format(time);
}

/** Offers, in a kept-ballots box, to send again or download each of its survey's ballots kept for a day without reaching the API. */
function showKeptBallots(box: HTMLElement): void {
  const slug = box.dataset.keptBallots!;
  const template = box.querySelector('template')!;
  const status = box.querySelector<HTMLElement>('[data-kept-status]')!;
  $staleBallots.subscribe((all) => {
    const mine = all.filter((ballot) => ballot.slug === slug);
    box.hidden = mine.length === 0 && !status.textContent;
    box.querySelectorAll('.kept-ballot').forEach((row) => row.remove());
    for (const ballot of mine) {
      const row = (template.content.cloneNode(true) as DocumentFragment).firstElementChild as HTMLElement;
      row.querySelector('[data-when]')!.textContent = `Your ballot of ${dayText(ballot.createdAt)} has not reached us yet. It is kept on this device.`;
      const resend = row.querySelector<HTMLButtonElement>('[data-resend]')!;
      resend.addEventListener('click', async () => {
        resend.disabled = true;
        status.textContent = 'Sending…';
        const verdict = await resendBallot(ballot.key).catch(() => undefined);
        status.textContent =
          verdict?.kind === 'stored'
            ? 'Your ballot has been received.'
            : verdict?.kind === 'already-received'
              ? 'A ballot has already been received from this link.'
              : verdict?.kind === 'refused'
                ? 'We could not accept your ballot.'
                : 'It could not be sent yet. Please try again later, or download it and send it to the publication.';
        resend.disabled = false;
        box.hidden = false;
      });
      row.querySelector('[data-download]')!.addEventListener('click', () => downloadBallot(ballot));
      box.insertBefore(row, status);
    }
  });
}

/** Starts sending this device's kept ballots, and offers those kept for a day in every kept-ballots box of the page. */
export function startKeptBallots(): void {
  startOutbox();
  for (const box of document.querySelectorAll<HTMLElement>('[data-kept-ballots]')) showKeptBallots(box);
}
