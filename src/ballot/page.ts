import { $link, checkLink, type LinkSurvey } from './link.ts';
import { $draft, deviceStorage, keepsSomethingOf } from './drafts/draft-state.ts';
import { loadDeferred } from './store.ts';
import { $thanksInPlace } from './submit/submit-state.ts';
import { sendKeptBallots } from '../thanks/send-kept-ballots.ts';
import { markFormReady } from './verify/proof.ts';
import { setAffirmed, setAnswer, setFile } from './fields/answers.ts';
import type { BallotSurvey } from '../survey/ballots/ballot.struct.ts';
import { AFFIRM_NAME } from '../survey/ballots/ballot-keys.ts';
import { answerNames, fieldRow, isKind, optionAtPosition } from '../survey/config/fields.ts';
import { allFields } from '../survey/config/layout.ts';
import { yieldToMain } from '../integrations/after-paint/yield-to-main.ts';
import type { Leaving, LeavingEvent } from '../components/leaving.ts';
import { followLanguageSwitch } from '../components/language-switch.ts';

/**
 * Starts what the ballot page runs beside its islands: the answers given before they hydrated,
 * the link's state shown on the page, the drafts, the retry of a link check, and the ballots kept
 * on this device. src/ballot/islands.ts calls it in the browser as the islands load, once the
 * page has painted (`client:painted`) or the voter has touched it. Only the early answers are
 * taken at once, before the first island hydrates; the rest waits for a task of its own, so the
 * islands' code does not run in one long task with it.
 */
export function startBallotPage(): void {
  const root = document.getElementById('survey-root')!;
  const survey = JSON.parse(root.dataset.survey!) as LinkSurvey & Pick<BallotSurvey, 'layout'>;
  const form = root.querySelector('form');
  const early = form ? keepEarlyAnswers(form, survey) : false;
  // Until an island has hydrated, what the voter does in it reaches no store: keep it likewise.
  const keepLater = (event: Event) => {
    if (form && event.target instanceof Element && event.target.closest('astro-island[ssr]')) keepEarlyAnswers(form, survey);
  };
  form?.addEventListener('input', keepLater, true);
  form?.addEventListener('change', keepLater, true);
  // The drafts' code loads at once when this device keeps something of the survey (to put the
  // answers back), else as the voter starts, with the thank-you view an offline submit shows.
  let started: ReturnType<typeof loadDeferred> | undefined;
  const start = () => {
    if (started) return;
    removeEventListener('input', start, true);
    removeEventListener('change', start, true);
    started = loadDeferred().then((later) => {
      later.startDrafts(survey);
      later.startThanksInPlace(document.getElementById('thank-you')!);
      return later;
    });
  };
  // Left by the language switch: the draft is saved before the page in the other language opens.
  addEventListener('peervote:leaving' satisfies Leaving, (event) => {
    if (started) (event as LeavingEvent).detail.waitFor(started.then((later) => later.saveDraftNow()));
  });
  // The ballot's language switch is started here, not by a script of its own in the page (SurveyLayout.astro).
  followLanguageSwitch();
  addEventListener('input', start, true);
  addEventListener('change', start, true);
  if (early) start();
  void yieldToMain().then(() => {
    if (keepsSomethingOf(survey.slug)) start();
    startPageState(root, survey);
  });
}

/** Shows the link's state as it is checked, and sends the ballots kept on this device. */
function startPageState(root: HTMLElement, survey: LinkSurvey): void {
  const oldBrowser = root.dataset.linkState === 'old-browser';
  const showState = () => {
    root.dataset.linkState = $thanksInPlace.get() ? 'thankyou' : $link.get().state;
  };
  $link.subscribe((link) => {
    showState();
    if (link.state === 'form' && !$draft.get().keeping) $draft.set({ keeping: deviceStorage() });
    // The fill time counts from the form becoming usable; on a survey that verifies voters, from the right code.
    if (link.state === 'form' && !root.querySelector('[data-verify]')) markFormReady();
  });
  $thanksInPlace.subscribe(showState);

  const check = () => checkLink(survey, location.pathname, oldBrowser);
  root.querySelector('[data-retry-link]')?.addEventListener('click', check);
  void check();

  // Ballots kept on this device after a failed send go out (SurveyLayout.astro does this on the other pages).
  sendKeptBallots();
}

/** True for a control of the server's form that the voter has changed. */
function changed(control: Element): control is HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement {
  if (control instanceof HTMLSelectElement) return [...control.options].some((option) => option.selected !== option.defaultSelected);
  if (control instanceof HTMLTextAreaElement) return control.value !== control.defaultValue;
  if (!(control instanceof HTMLInputElement)) return false;
  if (control.type === 'checkbox' || control.type === 'radio') return control.checked !== control.defaultChecked;
  if (control.type === 'file') return Boolean(control.files?.length);
  return control.value !== control.defaultValue;
}

/**
 * Takes what the voter typed, chose or ticked in the server's form before the islands hydrated
 * (they do once the page has painted) into the stores, so that the islands show it and the
 * ballot sends it. True when there was something.
 */
function keepEarlyAnswers(form: HTMLFormElement, survey: Pick<BallotSurvey, 'layout'>): boolean {
  const names = new Set([...form.elements].filter(changed).map((control) => control.name));
  if (names.size === 0) return false;
  const data = new FormData(form);
  for (const field of allFields(survey.layout)) {
    if (isKind(field, 'file') && names.has(field.name)) {
      const file = data.get(field.name);
      if (file instanceof File && file.size > 0) setFile(field.name, file);
    }
    if (!isKind(field, 'answer')) continue;
    const row = fieldRow(field);
    for (const name of answerNames(field).filter((each) => names.has(each))) {
      const sent = String(data.get(name) ?? '');
      if (name !== field.name) setAnswer(name, sent);
      else if (row.value === 'choices') setAnswer(name, data.getAll(name).map(String));
      else setAnswer(name, row.positional ? optionAtPosition(field.options ?? [], sent) : sent);
    }
  }
  if (names.has(AFFIRM_NAME)) setAffirmed(data.has(AFFIRM_NAME));
  return true;
}
