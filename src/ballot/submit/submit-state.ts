import { atom } from 'nanostores';
import type { Delivery } from './delivery.ts';

/** What the submit flow needs of a survey besides its ballot rules. */
export interface SubmitSurvey {
  slug: string;
  project_id: string;
  project_type: string;
  google_sheet_title?: string;
  /** The survey's languages, the first its default: a page in a further one has its addresses under `/{lang}/`. */
  languages: readonly string[];
  /** The fields whose answers name the voter in an error report, when the survey sets them (voterFields). */
  name_fields?: string[];
}

/** The submit button's state (docs/spec.md, "Submitting"). */
export const $submission = atom<'idle' | 'submitting'>('idle');

/** The red notice under the ballot, shown for NOTICE_MS (src/ballot/store.ts). */
export const $notice = atom<string | undefined>();

/** How this page's submission ended, set just before the thank-you page opens (analytics listens to it). */
export const $submitted = atom<Delivery | undefined>();

/**
 * True when the thank-you view shows in place of the form: the ballot could not leave because
 * the connection is down, so the thank-you page could not load either.
 */
export const $thanksInPlace = atom(false);

// Back to a page the browser kept whole after it left for the thank-you page: the button is ready again.
if (typeof window !== 'undefined') {
  addEventListener('pageshow', (event) => {
    if (event.persisted) $submission.set('idle');
  });
}
