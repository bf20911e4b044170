import { $staleBallots, downloadBallot, resendBallot, startOutbox } from '../ballot/submit/outbox.ts';
import { intlLocale, m } from '../i18n/messages.ts';

let day: Intl.DateTimeFormat | undefined;

/** A kept ballot's time as the box says it; the format is built at its first use, as building one costs tens of milliseconds. */
function dayText(time: number): string {
  day ??= new Intl.DateTimeFormat(intlLocale('en'), { dateStyle: 'long', timeStyle: 'short' });
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
      row.querySelector('[data-when]')!.textContent = m.kept_when({ date: dayText(ballot.createdAt) });
      const resend = row.querySelector<HTMLButtonElement>('[data-resend]')!;
      resend.addEventListener('click', async () => {
        resend.disabled = true;
        status.textContent = m.kept_sending();
        const verdict = await resendBallot(ballot.key).catch(() => undefined);
        status.textContent =
          verdict?.kind === 'stored'
            ? m.thanks_sent()
            : verdict?.kind === 'already-received'
              ? m.thanks_already_link()
              : verdict?.kind === 'refused'
                ? m.thanks_refused()
                : m.kept_not_yet();
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
