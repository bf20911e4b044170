import { useEffect, useRef } from 'react';
import { useStore } from '@nanostores/react';
import { $writeInFocus, $writeIns, addWriteIn, recountVotes, removeWriteIn, updateWriteIn } from './writeins.ts';
import { touch } from '../store.ts';
import { FieldError, useShownProblems } from '../fields/FieldError.tsx';
import { categoryKey, writeInNames } from '../../survey/ballots/ballot-keys.ts';

interface Props {
  /** Category groups with their sub-categories, for the Category select. */
  groups: Array<{ name: string; subcategories: string[] }>;
  limit: number;
}

/** The write-in section: nominees the voter could not find, each with its category. */
export default function WriteIns({ groups, limit }: Props) {
  const rows = useStore($writeIns, { ssr: 'initial' });
  const error = useShownProblems();
  const full = rows.length >= limit;
  const addButton = useRef<HTMLButtonElement>(null);
  useEffect(() => $writeInFocus.listen(() => addButton.current?.focus({ preventScroll: true })), []);

  const add = () => {
    const id = addWriteIn(limit);
    if (id !== undefined) requestAnimationFrame(() => document.getElementById(`writein-${id}-name`)?.focus());
  };
  const remove = (id: number, index: number) => {
    removeWriteIn(id);
    recountVotes();
    const next = $writeIns.get()[Math.min(index, $writeIns.get().length - 1)];
    requestAnimationFrame(() => document.getElementById(next ? `writein-${next.id}-name` : 'add-write-in')?.focus());
  };

  return (
    <section className="write-ins" id="write-ins" aria-labelledby="write-ins-title" translate="no">
      <h3 id="write-ins-title">Can't find your nominee?</h3>
      {rows.map((row, index) => {
        const names = writeInNames(index);
        return (
          <fieldset className="write-in" key={row.id}>
            <legend className="visually-hidden">Write-in {index + 1}</legend>
            <div className="field">
              <label htmlFor={`writein-${row.id}-name`}>Name</label>
              <input
                id={`writein-${row.id}-name`}
                className="input"
                name={names.name}
                placeholder="Nominee's Name"
                value={row.name}
                aria-invalid={Boolean(error(names.name)) || undefined}
                aria-describedby={error(names.name) ? `writein-${row.id}-name-error` : undefined}
                onChange={(event) => updateWriteIn(row.id, { name: event.target.value })}
                onBlur={() => {
                  recountVotes();
                  touch(names.name);
                }}
              />
              <FieldError id={`writein-${row.id}-name-error`} message={error(names.name)} />
            </div>
            <div className="field">
              <label htmlFor={`writein-${row.id}-category`}>Category</label>
              <select
                id={`writein-${row.id}-category`}
                className="input"
                name={names.category}
                value={row.category}
                aria-invalid={Boolean(error(names.category)) || undefined}
                aria-describedby={error(names.category) ? `writein-${row.id}-category-error` : undefined}
                onChange={(event) => updateWriteIn(row.id, { category: event.target.value })}
                onBlur={() => touch(names.category)}
              >
                <option value="" disabled>
                  Select One
                </option>
                {groups.map((group) => (
                  <optgroup key={group.name} label={group.name}>
                    {group.subcategories.map((sub) => (
                      <option key={sub} value={categoryKey(group.name, sub)}>
                        {sub}
                      </option>
                    ))}
                  </optgroup>
                ))}
              </select>
              <FieldError id={`writein-${row.id}-category-error`} message={error(names.category)} />
            </div>
            <button type="button" className="button button-secondary button-small" onClick={() => remove(row.id, index)}>
              Remove<span className="visually-hidden"> write-in {index + 1}</span>
            </button>
          </fieldset>
        );
      })}
      {rows.length > 0 && (
        <p className="note">
          Write-ins are processed manually. All write-ins are valid votes and will be counted, but they may take up to 4 business days to appear.
        </p>
      )}
      <button
        ref={addButton}
        type="button"
        id="add-write-in"
        className="button button-secondary"
        onClick={add}
        aria-disabled={full || undefined}
        aria-describedby={full ? 'write-in-limit' : undefined}
      >
        Add Write-In
      </button>
      {full && (
        <p className="note" id="write-in-limit">
          You have reached the limit of {limit} {limit === 1 ? 'write-in' : 'write-ins'}.
        </p>
      )}
    </section>
  );
}
