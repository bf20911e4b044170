import { m } from '../../i18n/messages.ts';

/** What a field's indicator shows (docs/spec.md, "Fields"): required and empty, has an error, filled and valid, or nothing yet. */
export type FieldStatus = 'required' | 'danger' | 'success' | 'neutral';

/**
 * Decides a field's indicator: a problem once checked; a check only on a value checked and found
 * valid; else an asterisk on a required field. Nothing is marked wrong before the voter acts.
 */
export function fieldStatus({ required, filled, error, checked }: { required: boolean; filled: boolean; error?: string; checked?: boolean }): FieldStatus {
  if (error) return 'danger';
  if (filled && checked) return 'success';
  return required ? 'required' : 'neutral';
}

/** The mark beside a label: an asterisk, a warning or a check, each with words for screen readers. */
export function Indicator({ status }: { status: FieldStatus }) {
  if (status === 'required')
    return (
      <span className="indicator indicator-required" title={m.indicator_required()}>
        <span aria-hidden="true"> *</span>
        <span className="visually-hidden"> {m.indicator_required_sr()}</span>
      </span>
    );
  if (status === 'danger')
    return (
      <span className="indicator indicator-danger" title={m.indicator_danger()}>
        <svg aria-hidden="true" viewBox="0 0 16 16" width="16" height="16">
          <path d="M8 1.5 15 14H1z" fill="currentColor" />
          <path d="M8 6v4M8 11.5v1" stroke="#fff" strokeWidth="1.6" />
        </svg>
        <span className="visually-hidden"> {m.indicator_danger_sr()}</span>
      </span>
    );
  if (status === 'success')
    return (
      <span className="indicator indicator-success" title={m.indicator_done()}>
        <svg aria-hidden="true" viewBox="0 0 16 16" width="16" height="16">
          <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <span className="visually-hidden"> {m.indicator_done_sr()}</span>
      </span>
    );
  return null;
}
