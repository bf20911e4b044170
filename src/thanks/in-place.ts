import { freshAfterSubmit } from '../ballot/drafts/draft.ts';
import { $thanksInPlace } from '../ballot/submit/submit-state.ts';
import { startThankYou } from './view.ts';

let started = false;

/**
 * The thank-you view on the survey's own page, shown in place of the form after an offline
 * submit (the thank-you page could not load): focused when shown, and Back shows the form again,
 * fresh if its ballot went.
 */
export function startThanksInPlace(root: HTMLElement): void {
  if (started) return;
  started = true;
  startThankYou(root);
  $thanksInPlace.listen((inPlace) => inPlace && root.focus());
  addEventListener('popstate', () => {
    if (!$thanksInPlace.get()) return;
    freshAfterSubmit();
    $thanksInPlace.set(false);
  });
  root.querySelector('[data-back]')?.addEventListener('click', (event) => {
    event.preventDefault();
    history.back();
  });
}
