import { Suspense, lazy, useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { $link } from '../link.ts';
import { $failedSubmits } from '../validation.ts';
import { segmentRows } from '../page-survey.ts';
import { FieldView } from './FieldView.tsx';

/** Without the summary's code (the connection dropped since the page loaded): focus the first field with a problem, as before. */
function FocusFirstProblem() {
  const failed = useStore($failedSubmits, { ssr: 'initial' });
  useEffect(() => {
    const target = document.querySelector<HTMLElement>('[aria-invalid="true"]');
    const control = target?.matches('input, select, textarea') ? target : target?.querySelector<HTMLElement>('input:not(:disabled), select, textarea');
    target?.scrollIntoView({ block: 'center' });
    control?.focus({ preventScroll: true });
  }, [failed]);
  return null;
}

const ErrorSummary = lazy(() => import('./ErrorSummary.tsx').catch(() => ({ default: FocusFirstProblem })));

interface Props {
  /** The ballot page's survey (src/ballot/page-survey.ts), where its fields are. */
  page: string;
  /** The index of the layout's segment of plain fields this island renders; -1 for none (the error summary alone). */
  segment: number;
  /** True for the island at the top of the ballot: it shows the error summary after a failed submit. */
  summary?: boolean;
}

/** Rows of the ballot's fields, prefilled from a personal link; at the top of the ballot, the error summary. */
export default function BallotFields({ page, segment, summary = false }: Props) {
  const rows = segmentRows(page, segment);
  // Hydration renders what the build rendered (the stores' initial values); a prefill shows just after.
  const { prefill } = useStore($link, { ssr: 'initial' });
  const failedSubmits = useStore($failedSubmits, { ssr: 'initial' });
  return (
    <div className="fields" translate="no">
      {summary && failedSubmits > 0 && (
        <Suspense fallback={null}>
          <ErrorSummary />
        </Suspense>
      )}
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
