import { useRef, type ReactNode } from 'react';
import { useStore } from '@nanostores/react';
import { $files, setFile } from './answers.ts';
import { touch } from '../store.ts';
import type { FieldDef } from '../../survey/config/field.struct.ts';
import { FieldError } from './FieldError.tsx';
import { acceptedTypes } from '../../survey/ballots/file-rules.ts';
import { m } from '../../i18n/messages.ts';

interface Props {
  field: FieldDef;
  className: string;
  labelText: ReactNode;
  error?: string;
}

/** A file chooser that names the chosen file, or says none is uploaded yet. */
export function FileInput({ field, className, labelText, error }: Props) {
  const file = useStore($files, { ssr: 'initial' })[field.name];
  const id = `field-${field.name}`;
  const input = useRef<HTMLInputElement>(null);
  // A chosen file can be taken back: the input is emptied too, so the form does not send it.
  const remove = () => {
    if (input.current) input.current.value = '';
    setFile(field.name, undefined);
    touch(field.name);
    input.current?.focus();
  };
  return (
    <div className={className}>
      <span className="label" id={`${id}-label`}>
        {labelText}
      </span>
      <div className="file-chooser">
        <input
          ref={input}
          id={id}
          type="file"
          name={field.name}
          className="file-input"
          accept={acceptedTypes(field).join(',')}
          aria-labelledby={`${id}-label`}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-name${error ? ` ${id}-error` : ''}`}
          onChange={(event) => {
            setFile(field.name, event.target.files?.[0]);
            touch(field.name);
          }}
        />
        {/* Clicking it opens the chooser, with scripts or without; the input's name comes from the field's label (aria-labelledby). */}
        <label htmlFor={id} className="button button-secondary">
          {m.file_choose()}
        </label>
        <span className="file-name" id={`${id}-name`}>
          {file?.name ?? m.file_none()}
        </span>
        {file && (
          <button type="button" className="button button-secondary button-small" onClick={remove} aria-label={m.file_remove({ name: file.name })}>
            {m.file_remove_button()}
          </button>
        )}
      </div>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
