import { useEffect, useRef } from 'react';
import { useStore } from '@nanostores/react';
import { $attempted, $failedSubmits, $problems } from '../validation.ts';
import { focusProblem, problemTargetId } from './problem-target.ts';
import { m } from '../../i18n/messages.ts';

/** Orders problems as their fields stand on the page, top to bottom. */
function inPageOrder(problems: Array<[string, string]>): Array<[string, string]> {
  const place = new Map(problems.map(([path]) => [path, document.getElementById(problemTargetId(path)) ?? document.getElementsByName(path)[0]]));
  return problems.sort(([a], [b]) => {
    const [x, y] = [place.get(a), place.get(b)];
    if (!x || !y) return x ? -1 : y ? 1 : 0;
    return x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
  });
}

/**
 * The error summary at the top of the ballot (GOV.UK Design System): after a failed submit it
 * lists each problem as a link to its field, and takes focus so the voter hears it first.
 * The top fields island loads it on the first failed submit: a ballot right the first time never fetches it.
 */
export default function ErrorSummary() {
  const attempted = useStore($attempted, { ssr: 'initial' });
  const problems = useStore($problems, { ssr: 'initial' });
  const failed = useStore($failedSubmits, { ssr: 'initial' });
  const box = useRef<HTMLDivElement>(null);
  // Too few names is not among them: it has its own notice by the submit button (docs/spec.md, "Submitting"), once every field is right.
  const listed = attempted ? Object.entries(problems).filter((entry): entry is [string, string] => Boolean(entry[1])) : [];
  const shown = listed.length > 0 ? inPageOrder(listed) : listed;

  useEffect(() => {
    if (failed === 0 || !box.current) return;
    box.current.scrollIntoView({ block: 'start' });
    box.current.focus({ preventScroll: true });
  }, [failed]);

  if (shown.length === 0) return null;
  return (
    <div className="error-summary" id="error-summary" ref={box} tabIndex={-1} role="alert">
      <h2 id="error-summary-title">{m.error_summary_title()}</h2>
      <ul>
        {shown.map(([path, message]) => (
          <li key={path}>
            <a
              href={`#${problemTargetId(path)}`}
              onClick={(event) => {
                if (focusProblem(path)) event.preventDefault();
              }}
            >
              {message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
