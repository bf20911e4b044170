import type { ReactNode } from 'react';
import { useStore } from '@nanostores/react';
import { $answers, setAnswer, type Answer } from './answers.ts';
import { edit, touch } from '../store.ts';
import type { FieldDef } from '../../survey/config/field.struct.ts';
import { FieldError, useShownProblems } from './FieldError.tsx';
import { otherAnswerName } from '../../survey/ballots/ballot-keys.ts';
import { fieldRow } from '../../survey/config/fields.ts';
import { optionLabel } from '../../survey/config/layout.ts';
import { m } from '../../i18n/messages.ts';

interface Props {
  field: FieldDef;
  value: Answer;
  className: string;
  labelText: ReactNode;
  error?: string;
  /** Draws the options as cards (`fancy-radio`) rather than a list of buttons. */
  cards?: boolean;
}

/** Radio buttons, fancy radio cards or checkboxes for a field's options; 'Other' reveals a text input. */
export function ChoiceInput({ field, value, className, labelText, error, cards = false }: Props) {
  const answers = useStore($answers, { ssr: 'initial' });
  const multiple = fieldRow(field).value === 'choices';
  const chosen = Array.isArray(value) ? value : value ? [value] : [];
  const onChange = (next: Answer) => (setAnswer(field.name, next), touch(field.name));
  const toggle = (option: string, checked: boolean) => {
    if (!multiple) return onChange(option);
    onChange(checked ? [...chosen, option] : chosen.filter((o) => o !== option));
  };
  const otherName = otherAnswerName(field.name);
  const otherId = `field-${field.name}-other`;
  const otherError = useShownProblems()(otherName);
  const errorId = `field-${field.name}-error`;
  return (
    <fieldset
      className={className}
      id={`field-${field.name}`}
      role={multiple ? 'group' : 'radiogroup'}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? errorId : undefined}
    >
      <legend>{labelText}</legend>
      <div className={cards ? 'choices choices-fancy' : 'choices'}>
        {field.options!.map((option) => (
          <label key={option} className="choice">
            <input
              type={multiple ? 'checkbox' : 'radio'}
              name={field.name}
              value={option}
              checked={chosen.includes(option)}
              onChange={(event) => toggle(option, event.target.checked)}
            />
            <span>{optionLabel(field, option)}</span>
          </label>
        ))}
      </div>
      {multiple && chosen.includes('Other') && (
        <div className="other-answer">
          <label className="visually-hidden" htmlFor={otherId}>
            {m.other_specify()}
          </label>
          <input
            id={otherId}
            className="input"
            type="text"
            name={otherName}
            placeholder={m.please_specify()}
            value={String(answers[otherName] ?? '')}
            aria-invalid={otherError ? true : undefined}
            aria-describedby={otherError ? `${otherId}-error` : undefined}
            onChange={(event) => (setAnswer(otherName, event.target.value), edit(otherName))}
            onBlur={() => touch(otherName)}
          />
          <FieldError id={`${otherId}-error`} message={otherError} />
        </div>
      )}
      <FieldError id={errorId} message={error} />
    </fieldset>
  );
}
