import { useStore } from '@nanostores/react';
import { $link } from '../stores/link.ts';
import type { FieldDef } from '../survey/field.struct.ts';
import { FieldView } from './fields/FieldView.tsx';

interface Props {
  /** Consecutive rows of the layout that hold plain fields. */
  rows: FieldDef[][];
}

/** Rows of the ballot's fields, prefilled from a personal link. */
export default function BallotFields({ rows }: Props) {
  const { prefill } = useStore($link, { ssr: 'initial' });
  return (
    <div className="fields" translate="no">
      {rows.map((row, r) => (
        <div className="row" key={r}>
          {row.map((field) => (
            <FieldView key={field.name} field={field} prefill={prefill} />
          ))}
        </div>
      ))}
    </div>
  );
}
