import { useEffect, useRef } from 'react';
import { useStore } from '@nanostores/react';
import { $affirmed, setAffirmed } from '../fields/answers.ts';
import { clearMyAnswers, loadChecks, loadDeferred, submitBallot, touch } from '../store.ts';
import { FieldError, useShownProblems } from '../fields/FieldError.tsx';
import { $notice, $submission } from './submit-state.ts';
import { AFFIRM_NAME } from '../../survey/ballots/ballot-keys.ts';
import { $draft } from '../drafts/draft-state.ts';
import { intlLocale, m } from '../../i18n/messages.ts';
import { pageSurvey } from '../page-survey.ts';

interface Props {
  /** The ballot page's survey (src/ballot/page-survey.ts), whose affirmation points the voter affirms. */
  page: string;
}

/** The affirmation and the submit button, which checks and sends the ballot of the survey the page carries. */
export default function SubmitBar({ page }: Props) {
  // The statements the voter affirms; an empty list hides the section (docs/spec.md, "Submitting").
  const affirmationPoints = pageSurvey(page).affirmation_points;
  const affirmed = useStore($affirmed, { ssr: 'initial' });
  const status = useStore($submission, { ssr: 'initial' });
  const notice = useStore($notice, { ssr: 'initial' });
  const button = useRef<HTMLButtonElement>(null);
  // The statement shown when a survey configures no affirmation points (docs/spec.md, "Submitting").
  const points = affirmationPoints ?? [m.affirm_default()];

  useEffect(() => {
    const form = button.current?.form;
    // The stores and the device's draft are the form's one memory: the browser must not restore
    // its own copy of the inputs on Back or reload, which React would not see (the attribute is
    // read when the browser saves the form's state, as the page is left).
    form?.setAttribute('autocomplete', 'off');
    // The rules' code stays out of the page's load: it comes as the voter first enters the
    // ballot, so it is ready before they leave a field, and a visitor who only reads never fetches it.
    const load = () => void loadChecks();
    form?.addEventListener('focusin', load, { once: true });
    const onSubmit = (event: SubmitEvent) => {
      event.preventDefault();
      void submitBallot();
    };
    // The submit flow's code loads as the voter starts on the ballot, so it is here if the connection drops.
    const preload = () => void loadDeferred().catch(() => undefined);
    form?.addEventListener('submit', onSubmit);
    form?.addEventListener('input', preload, { once: true });
    form?.addEventListener('change', preload, { once: true });
    return () => {
      form?.removeEventListener('submit', onSubmit);
      form?.removeEventListener('focusin', load);
      form?.removeEventListener('input', preload);
      form?.removeEventListener('change', preload);
    };
  }, []);

  const error = useShownProblems()(AFFIRM_NAME);
  return (
    <div className="submit-bar" translate="no">
      <DraftLine />
      {points.length > 0 && (
        <fieldset className="affirmation field">
          <legend>{m.affirm_legend()}</legend>
          <ul>
            {points.map((point) => (
              <li key={point}>{point}</li>
            ))}
          </ul>
          <label className="choice">
            <input
              type="checkbox"
              id="field-affirm"
              name={AFFIRM_NAME}
              checked={affirmed}
              required
              aria-invalid={Boolean(error) || undefined}
              aria-describedby={error ? 'field-affirm-error' : undefined}
              onChange={(event) => {
                setAffirmed(event.target.checked);
                touch(AFFIRM_NAME);
              }}
            />
            <span>
              {m.affirm_label()}
              <span className="required" aria-hidden="true">
                {' '}
                *
              </span>
            </span>
          </label>
          <FieldError id="field-affirm-error" message={error} />
        </fieldset>
      )}
      <div className="vote-notice" role="alert">
        {notice && <p className="notice-danger">{notice}</p>}
      </div>
      <button ref={button} type="submit" className="button button-submit" disabled={status === 'submitting'}>
        {status === 'submitting' ? m.submitting() : m.submit()}
      </button>
    </div>
  );
}

let day: Intl.DateTimeFormat | undefined;

/** A day as the draft line says it; the format is built at its first use, as building one costs the page's start tens of milliseconds. */
function dayText(time: number): string {
  day ??= new Intl.DateTimeFormat(intlLocale('en'), { dateStyle: 'long' });
  return day.format(time);
}

/** The line that says the answers are kept on this device, with a way to clear them, and whether a ballot left from here. */
function DraftLine() {
  // The page reads the device's draft before the islands hydrate: hydrate with the store's first
  // value, as the HTML was rendered, then show the draft (else React reports a mismatch, #418).
  const draft = useStore($draft, { ssr: 'initial' });
  if (!draft.keeping) return null;
  return (
    <div className="draft-line">
      {draft.sentAt !== undefined && <p className="draft-sent">{m.draft_sent({ date: dayText(draft.sentAt) })}</p>}
      <p>
        {m.draft_kept()}{' '}
        <button type="button" className="button button-secondary button-small" onClick={() => clearMyAnswers()}>
          {m.draft_clear()}
        </button>
      </p>
    </div>
  );
}
