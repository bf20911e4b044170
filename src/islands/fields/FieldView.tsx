import { useStore } from '@nanostores/react';
import { $answers, setAnswer, type Answer } from '../../stores/answers.ts';
import type { FieldDef } from '../../survey/field.struct.ts';
import type { PersonValues } from '../../survey/config.struct.ts';
import type { PublicSurvey } from '../../survey/public.ts';
import { ChoiceInput } from './ChoiceInput.tsx';
import { FileInput } from './FileInput.tsx';
import { NominationsSection } from '../nominations/NominationsSection.tsx';

interface Props {
  field: FieldDef;
  survey: PublicSurvey;
  prefill: PersonValues;
}

/** The id of a field's input, for its label and its error message. */
export const inputId = (name: string) => `field-${name}`;

/** True when the field shows a value the voter may not change: disabled, or prepopulated from a personal link. */
export function isReadOnly(field: FieldDef, prefill: PersonValues): boolean {
  return Boolean(field.disabled || (field.prepopulated && prefill[field.name] !== undefined));
}

/** One field of the layout, by its type. */
export function FieldView({ field, survey, prefill }: Props) {
  const answers = useStore($answers);
  const value = answers[field.name] ?? '';
  const readOnly = isReadOnly(field, prefill);
  const required = Boolean(field.validation?.required);
  const id = inputId(field.name);
  const label = field.label ?? field.name;

  if (field.type === 'html') return <div className={`field field-html ${field.class ?? ''}`} dangerouslySetInnerHTML={{ __html: field.html ?? '' }} />;
  if (field.type === 'nested') {
    return (
      <fieldset className={`field field-nested ${field.class ?? ''}`}>
        <legend>{label}</legend>
        <div className="row">
          {field.fields!.map((sub) => (
            <FieldView key={sub.name} field={sub} survey={survey} prefill={prefill} />
          ))}
        </div>
      </fieldset>
    );
  }
  if (field.type === 'nomination') return <NominationsSection field={field} survey={survey} />;
  if (field.type === 'faces' || field.type === 'asktheexpert') return null;

  const labelText = (
    <>
      {label}
      {required && (
        <span className="required" aria-hidden="true">
          {' '}*
        </span>
      )}
    </>
  );
  if (readOnly) {
    return (
      <div className={`field ${field.class ?? ''}`}>
        <label htmlFor={id}>{labelText}</label>
        <input id={id} name={field.name} className="input" type="text" value={String(value)} readOnly aria-readonly="true" />
      </div>
    );
  }
  if (field.type === 'radio' || field.type === 'fancy-radio' || field.type === 'checkbox') {
    return <ChoiceInput field={field} value={value} onChange={(next: Answer) => setAnswer(field.name, next)} labelText={labelText} />;
  }
  if (field.type === 'file') return <FileInput field={field} labelText={labelText} />;

  const common = {
    id,
    name: field.name,
    required,
    'aria-required': required || undefined,
    placeholder: field.placeholder,
    className: 'input',
  };
  let control;
  if (field.type === 'select') {
    control = (
      <select {...common} value={String(value)} onChange={(event) => setAnswer(field.name, event.target.value)}>
        <option value="" disabled>
          Select One
        </option>
        {field.options!.map((option) => (
          <option key={option}>{option}</option>
        ))}
      </select>
    );
  } else if (field.type === 'textarea') {
    control = <textarea {...common} value={String(value)} onChange={(event) => setAnswer(field.name, event.target.value)} rows={4} />;
  } else if (field.type === 'slider') {
    const options = field.options!;
    const position = Math.max(1, options.indexOf(String(value)) + 1);
    control = (
      <>
        <input
          {...common}
          type="range"
          min={1}
          max={options.length}
          step={1}
          value={position}
          aria-valuetext={options[position - 1]}
          onChange={(event) => setAnswer(field.name, options[Number(event.target.value) - 1])}
        />
        <output htmlFor={id}>{options[position - 1]}</output>
      </>
    );
  } else {
    control = (
      <input
        {...common}
        type={field.type === 'email' ? 'email' : 'text'}
        autoComplete={field.type === 'email' ? 'email' : undefined}
        value={String(value)}
        onChange={(event) => setAnswer(field.name, event.target.value)}
      />
    );
  }
  return (
    <div className={`field field-${field.type} ${field.class ?? ''}`}>
      <label htmlFor={id}>{labelText}</label>
      {control}
    </div>
  );
}
