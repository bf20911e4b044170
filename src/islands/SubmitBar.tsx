import { useEffect, useRef } from 'react';
import { useStore } from '@nanostores/react';
import { $affirmed, setAffirmed } from '../stores/affirmation.ts';
import { $ballotSurvey, loadChecks, touch } from '../stores/validation.ts';
import { FieldError, useShownProblems } from './fields/FieldError.tsx';
import type { SubmitSurvey } from '../stores/submission.ts';
import { $notice, $submission, loadDeferred } from '../stores/submit-state.ts';
import { AFFIRM_NAME } from '../survey/ballot-keys.ts';
import { DraftLine } from './DraftLine.tsx';
import type { BallotSurvey } from '../survey/ballot.struct.ts';

/** The statement shown when a survey configures no affirmation points (SPEC.md §5). */
export const DEFAULT_AFFIRMATION = 'This is my one and only submission.';

interface Props {
  survey: BallotSurvey & SubmitSurvey;
}

/** The affirmation and the submit button; registers the survey that the whole ballot is checked against. */
export default function SubmitBar({ survey }: Props) {
  const affirmed = useStore($affirmed, { ssr: 'initial' });
  const status = useStore($submission);
  const notice = useStore($notice);
  const button = useRef<HTMLButtonElement>(null);
  const points = survey.affirmation_points ?? [DEFAULT_AFFIRMATION];

  useEffect(() => {
    $ballotSurvey.set(survey);
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
      void loadDeferred().then(({ submitBallot }) => submitBallot(survey));
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
  }, [survey]);

  const error = useShownProblems()(AFFIRM_NAME);
  return (
    <div className="submit-bar" translate="no">
      <DraftLine />
      {points.length > 0 && (
        <fieldset className="affirmation field">
          <legend>Affirmation</legend>
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
              I Affirm
              <span className="required" aria-hidden="true">
                {' '}*
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
        {status === 'submitting' ? 'Submitting…' : 'Submit'}
      </button>
    </div>
  );
}
