import { useState, type ReactNode } from 'react';
import type { FieldDef } from '../../survey/field.struct.ts';

interface Props {
  field: FieldDef;
  labelText: ReactNode;
}

/** A file chooser that names the chosen file, or says none is uploaded yet. */
export function FileInput({ field, labelText }: Props) {
  const [fileName, setFileName] = useState<string>();
  const id = `field-${field.name}`;
  return (
    <div className={`field field-file ${field.class ?? ''}`}>
      <span className="label" id={`${id}-label`}>
        {labelText}
      </span>
      <label className="file-chooser">
        <input
          id={id}
          type="file"
          name={field.name}
          className="visually-hidden"
          accept={field.validation?.accept?.join(',')}
          aria-labelledby={`${id}-label ${id}-button`}
          onChange={(event) => setFileName(event.target.files?.[0]?.name)}
        />
        <span className="button button-secondary" id={`${id}-button`} aria-hidden="true">
          Choose a file...
        </span>
        <span className="file-name">{fileName ?? 'No file uploaded'}</span>
      </label>
    </div>
  );
}
