import { useStore } from '@nanostores/react';
import type { ReactNode } from 'react';
import { $answers, setAnswer, type Answer } from './answers.ts';
import { $problems } from '../validation.ts';
import { edit, touch } from '../store.ts';
import type { FieldDef } from '../../survey/config/field.struct.ts';
import type { PersonValues } from '../../survey/config/config.struct.ts';
import { isBlank } from '../../survey/ballots/ballot-input.ts';
import { isReadOnly } from '../../survey/ballots/read-only.ts';
import { otherAnswerName } from '../../survey/ballots/ballot-keys.ts';
import { autofillToken, fieldRow, formNames, type FieldTypeName } from '../../survey/config/fields.ts';
import { ChoiceInput } from './ChoiceInput.tsx';
import { FileInput } from './FileInput.tsx';
import { Indicator, fieldStatus, type FieldStatus } from './Indicator.tsx';
import { FieldError, useChecked, useShownProblems } from './FieldError.tsx';
import { optionLabel } from '../../survey/config/layout.ts';
import { m } from '../../i18n/messages.ts';

interface Props {
  field: FieldDef;
  prefill: PersonValues;
}

/** What a field's component is given: the field, its answer, and what FieldView worked out for every type alike. */
interface FieldProps extends Props {
  value: Answer;
  /** The id of its input, for its label and its error message. */
  id: string;
  className: string;
  labelText: ReactNode;
  /** Its first problem, once the voter may see it. */
  error?: string;
  required: boolean;
}

/** A component that renders one type of field. */
type FieldComponent = (props: FieldProps) => ReactNode;

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

/** The label, one control and its first problem: the frame of every single-input field. */
function ControlFrame({ props: { id, className, labelText, error }, children }: { props: FieldProps; children: ReactNode }) {
  return (
    <div className={className}>
      <label htmlFor={id}>{labelText}</label>
      {children}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** The attributes a single input shares whatever its type: name, id, required, placeholder, and its problem once shown. */
function controlAttributes({ field, id, required, error }: FieldProps) {
  return {
    id,
    name: field.name,
    'aria-required': required || undefined,
    placeholder: field.placeholder,
    autoComplete: autofillToken(field),
    className: 'input',
    onBlur: () => touch(field.name),
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
  } as const;
}

/** A one-line input of the given type, checked as the voter types. */
function LineInput({ props, type }: { props: FieldProps; type: 'text' | 'email' }) {
  const { field, value } = props;
  return (
    <ControlFrame props={props}>
      <input
        {...controlAttributes(props)}
        type={type}
        value={String(value)}
        onChange={(event) => (setAnswer(field.name, event.target.value), edit(field.name))}
      />
    </ControlFrame>
  );
}

/** A one-line text answer. */
function TextInput(props: FieldProps) {
  return <LineInput props={props} type="text" />;
}

/** An email address: the browser offers its address keyboard and the voter's own address. */
function EmailInput(props: FieldProps) {
  return <LineInput props={props} type="email" />;
}

/** A longer text answer, on four lines. */
function TextareaInput(props: FieldProps) {
  const { field, value } = props;
  return (
    <ControlFrame props={props}>
      <textarea
        {...controlAttributes(props)}
        value={String(value)}
        onChange={(event) => (setAnswer(field.name, event.target.value), edit(field.name))}
        rows={4}
      />
    </ControlFrame>
  );
}

/** One of the field's options from a list, which starts on a disabled 'Select One'. */
function SelectInput(props: FieldProps) {
  const { field, value } = props;
  return (
    <ControlFrame props={props}>
      <select {...controlAttributes(props)} value={String(value)} onChange={(event) => (setAnswer(field.name, event.target.value), touch(field.name))}>
        <option value="" disabled>
          {m.select_one()}
        </option>
        {field.options!.map((option) => (
          <option key={option} value={option}>
            {optionLabel(field, option)}
          </option>
        ))}
      </select>
    </ControlFrame>
  );
}

/** One of the field's options by its position on a range from 1 to their number, the chosen option written beside it. */
function SliderInput(props: FieldProps) {
  const { field, value, id } = props;
  const options = field.options!;
  const position = Math.max(1, options.indexOf(String(value)) + 1);
  return (
    <ControlFrame props={props}>
      <div className="slider">
        <input
          {...controlAttributes(props)}
          placeholder={undefined}
          type="range"
          min={1}
          max={options.length}
          step={1}
          value={position}
          aria-valuetext={optionLabel(field, options[position - 1]!)}
          onChange={(event) => setAnswer(field.name, options[Number(event.target.value) - 1])}
        />
        <output htmlFor={id}>{optionLabel(field, value ? String(value) : options[0]!)}</output>
      </div>
    </ControlFrame>
  );
}

/** Radio buttons drawn as cards. */
function FancyRadioInput(props: FieldProps) {
  return <ChoiceInput {...props} cards />;
}

/** The survey author's own content, which sends nothing. */
function HtmlContent({ field }: FieldProps) {
  return <div className={`field field-html ${field.class ?? ''}`} dangerouslySetInnerHTML={{ __html: field.html ?? '' }} />;
}

/** A group of fields under one legend, side by side. */
function NestedFields({ field, prefill }: FieldProps) {
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

/** The nominations and reservation sections are islands of their own (src/survey/config/segments.ts): nothing here. */
function RenderedElsewhere() {
  return null;
}

/** An answer or file the voter may not change (disabled, or prepopulated for this person): its value as read-only text, whatever its type. */
function ReadOnlyField({ field, value, id, className, labelText }: FieldProps) {
  return (
    <div className={className}>
      <label htmlFor={id}>{labelText}</label>
      <input id={id} name={field.name} className="input" type="text" value={[value].flat().join(', ')} readOnly aria-readonly="true" />
    </div>
  );
}

/** Each field type's component: a type of the field table without one here does not compile. */
const FIELD_COMPONENTS: Record<FieldTypeName, FieldComponent> = {
  nested: NestedFields,
  text: TextInput,
  select: SelectInput,
  email: EmailInput,
  nomination: RenderedElsewhere,
  faces: RenderedElsewhere,
  asktheexpert: RenderedElsewhere,
  html: HtmlContent,
  slider: SliderInput,
  textarea: TextareaInput,
  radio: ChoiceInput,
  'fancy-radio': FancyRadioInput,
  checkbox: ChoiceInput,
  file: FileInput,
};

/** One field of the layout, by its type, with its indicator and first error. */
export function FieldView({ field, prefill }: Props) {
  const answers = useStore($answers, { ssr: 'initial' });
  const shownProblem = useShownProblems();
  const checked = useChecked();
  const problems = useStore($problems, { ssr: 'initial' });
  const value: Answer = answers[field.name] ?? '';
  const required = Boolean(field.validation?.required);
  const { kind, value: sends } = fieldRow(field);
  const readOnly = isReadOnly(field, prefill);
  const error = readOnly ? undefined : shownProblem(field.name);
  // A ticked 'Other' without its text marks the whole question, though its message sits under the text.
  const otherError = sends === 'choices' && !readOnly ? shownProblem(otherAnswerName(field.name)) : undefined;
  // The check only on a value found valid: a problem not yet shown (an empty 'Other' text, say) withholds it.
  const valid = !problems[field.name] && formNames(field).every((name) => !problems[name]);
  const status = fieldStatus({ required, filled: !isBlank(value) && valid, error: error ?? otherError, checked: readOnly || checked(field.name) });
  const className = `field field-${field.type} is-${status} ${field.labelAbove === false ? 'label-inline' : ''} ${field.class ?? ''}`;
  const labelText = <LabelText field={field} status={status} />;
  const props: FieldProps = { field, prefill, value, id: inputId(field.name), className, labelText, error, required };
  // What the voter answers (an answer or a file) but may not change shows as text, whatever its type's input.
  const Component = readOnly && (kind === 'answer' || kind === 'file') ? ReadOnlyField : FIELD_COMPONENTS[field.type];
  return <Component {...props} />;
}

const PATHS: Record<string, string> = {
  user: 'M8 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6zm-5.5 6.5c0-3 2.5-5 5.5-5s5.5 2 5.5 5z',
  envelope: 'M1.5 3.5h13v9h-13zm0 0L8 9l6.5-5.5',
  phone: 'M4 1.5h3l1 3.5-2 1.2a8 8 0 0 0 3.8 3.8l1.2-2 3.5 1v3A1.5 1.5 0 0 1 13 14.5 11.5 11.5 0 0 1 1.5 3 1.5 1.5 0 0 1 3 1.5z',
  hospital: 'M2.5 14.5v-12h11v12zm4-9.5h3m-1.5-1.5v3M6 14.5v-3h4v3',
  'id-card': 'M1.5 3.5h13v9h-13zM4 10.5c.3-1.3 1-2 2-2s1.7.7 2 2M6 7.5a1.2 1.2 0 1 0 0-.1M10 6.5h2.5M10 9h2.5',
};

/** A small decorative icon before a label, for the icon names a field may give; unknown names show none. */
function FieldIcon({ name }: { name?: string }) {
  const d = name ? PATHS[name] : undefined;
  if (!d) return null;
  return (
    <svg className="field-icon" aria-hidden="true" viewBox="0 0 16 16" width="16" height="16">
      <path d={d} fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinejoin="round" />
    </svg>
  );
}
