import { useStore } from '@nanostores/react';
import type { ReactNode } from 'react';
import { $answers, setAnswer, type Answer } from './answers.ts';
import { $problems } from '../validation.ts';
import { edit, touch } from '../store.ts';
import type { FieldDef } from '../../survey/field.struct.ts';
import type { PersonValues } from '../../survey/config.struct.ts';
import { isBlank } from '../../survey/ballot-input.ts';
import { isReadOnly } from '../../survey/read-only.ts';
import { otherAnswerName } from '../../survey/ballot-keys.ts';
import { fieldRow, formNames } from '../../survey/fields.ts';
import { ChoiceInput } from './ChoiceInput.tsx';
import { FileInput } from './FileInput.tsx';
import { FieldIcon } from './FieldIcon.tsx';
import { Indicator, fieldStatus, type FieldStatus } from './Indicator.tsx';
import { FieldError, useChecked, useShownProblems } from './FieldError.tsx';

interface Props {
  field: FieldDef;
  prefill: PersonValues;
}

/** The id of a field's input, for its label and its error message. */
const inputId = (name: string) => `field-${name}`;

/** The label's text with the field's indicator. */
function LabelText({ field, status }: { field: FieldDef; status: FieldStatus }) {
  return (
    <>
      <FieldIcon name={field.icon} />
      {field.label ?? field.name}
      <Indicator status={status} />
    </>
  );
}

/** One field of the layout, by its type, with its indicator and first error. */
export function FieldView({ field, prefill }: Props) {
  const answers = useStore($answers, { ssr: 'initial' });
  const shownProblem = useShownProblems();
  const checked = useChecked();
  const problems = useStore($problems, { ssr: 'initial' });
  const value: Answer = answers[field.name] ?? '';
  const id = inputId(field.name);
  const required = Boolean(field.validation?.required);
  const readOnly = isReadOnly(field, prefill);
  const error = readOnly ? undefined : shownProblem(field.name);
  // A ticked 'Other' without its text marks the whole question, though its message sits under the text.
  const otherError = fieldRow(field).value === 'choices' && !readOnly ? shownProblem(otherAnswerName(field.name)) : undefined;
  // The check only on a value found valid: a problem not yet shown (an empty 'Other' text, say) withholds it.
  const valid = !problems[field.name] && formNames(field).every((name) => !problems[name]);
  const status = fieldStatus({ required, filled: !isBlank(value) && valid, error: error ?? otherError, checked: readOnly || checked(field.name) });
  const className = `field field-${field.type} is-${status} ${field.labelAbove === false ? 'label-inline' : ''} ${field.class ?? ''}`;

  if (field.type === 'html') return <div className={`field field-html ${field.class ?? ''}`} dangerouslySetInnerHTML={{ __html: field.html ?? '' }} />;
  if (field.type === 'nested') {
    return (
      <fieldset className={`field field-nested ${field.class ?? ''}`}>
        <legend className={field.labelAbove === false ? 'visually-hidden' : undefined}>{field.label ?? field.name}</legend>
        <div className="row">
          {field.fields!.map((sub) => (
            <FieldView key={sub.name} field={sub} prefill={prefill} />
          ))}
        </div>
      </fieldset>
    );
  }
  // The nominations and reservation sections are islands of their own (src/survey/segments.ts).
  if (['nomination', 'reservation'].includes(fieldRow(field).kind)) return null;

  const labelText: ReactNode = <LabelText field={field} status={status} />;
  const described = {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
  } as const;
  if (readOnly) {
    return (
      <div className={className}>
        <label htmlFor={id}>{labelText}</label>
        <input id={id} name={field.name} className="input" type="text" value={[value].flat().join(', ')} readOnly aria-readonly="true" />
      </div>
    );
  }
  if (field.type === 'radio' || field.type === 'fancy-radio' || field.type === 'checkbox') {
    return (
      <ChoiceInput
        field={field}
        value={value}
        className={className}
        labelText={labelText}
        error={error}
        onChange={(next) => (setAnswer(field.name, next), touch(field.name))}
      />
    );
  }
  if (field.type === 'file') return <FileInput field={field} className={className} labelText={labelText} error={error} />;

  const common = {
    id,
    name: field.name,
    'aria-required': required || undefined,
    placeholder: field.placeholder,
    className: 'input',
    onBlur: () => touch(field.name),
    ...described,
  };
  let control;
  if (field.type === 'select') {
    control = (
      <select {...common} value={String(value)} onChange={(event) => (setAnswer(field.name, event.target.value), touch(field.name))}>
        <option value="" disabled>
          Select One
        </option>
        {field.options!.map((option) => (
          <option key={option}>{option}</option>
        ))}
      </select>
    );
  } else if (field.type === 'textarea') {
    control = <textarea {...common} value={String(value)} onChange={(event) => (setAnswer(field.name, event.target.value), edit(field.name))} rows={4} />;
  } else if (field.type === 'slider') {
    const options = field.options!;
    const position = Math.max(1, options.indexOf(String(value)) + 1);
    control = (
      <div className="slider">
        <input
          {...common}
          placeholder={undefined}
          type="range"
          min={1}
          max={options.length}
          step={1}
          value={position}
          aria-valuetext={options[position - 1]}
          onChange={(event) => setAnswer(field.name, options[Number(event.target.value) - 1])}
        />
        <output htmlFor={id}>{value ? String(value) : options[0]}</output>
      </div>
    );
  } else {
    control = (
      <input
        {...common}
        type={field.type === 'email' ? 'email' : 'text'}
        autoComplete={field.type === 'email' ? 'email' : undefined}
        value={String(value)}
        onChange={(event) => (setAnswer(field.name, event.target.value), edit(field.name))}
      />
    );
  }
  return (
    <div className={className}>
      <label htmlFor={id}>{labelText}</label>
      {control}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
