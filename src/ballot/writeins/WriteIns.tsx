import { useEffect, useRef } from 'react';
import { useStore } from '@nanostores/react';
import { $writeInFocus, $writeIns, addWriteIn, recountVotes, removeWriteIn, updateWriteIn } from './writeins.ts';
import { touch } from '../store.ts';
import { FieldError, useShownProblems } from '../fields/FieldError.tsx';
import { categoryKey, writeInNames } from '../../survey/ballots/ballot-keys.ts';
import { m } from '../../i18n/messages.ts';
import { categoryGroups } from '../../survey/config/layout.ts';
import { pageSurvey } from '../page-survey.ts';

interface Props {
  /** The ballot page's survey (src/ballot/page-survey.ts): its category groups for the Category select, their words in the page's language, and the limit. */
  page: string;
}

/** The write-in section: nominees the voter could not find, each with its category. */
export default function WriteIns({ page }: Props) {
  const survey = pageSurvey(page);
  const groups = categoryGroups(survey);
  const limit = survey.write_in_limit;
  const labels = survey.category_labels ?? {};
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
      <h3 id="write-ins-title">{m.cant_find_nominee()}</h3>
      {rows.map((row, index) => {
        const names = writeInNames(index);
        return (
          <fieldset className="write-in" key={row.id}>
            <legend className="visually-hidden">{m.write_in_legend({ n: index + 1 })}</legend>
            <div className="field">
              <label htmlFor={`writein-${row.id}-name`}>{m.write_in_name()}</label>
              <input
                id={`writein-${row.id}-name`}
                className="input"
                name={names.name}
                placeholder={m.write_in_name_placeholder()}
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
              <label htmlFor={`writein-${row.id}-category`}>{m.write_in_category()}</label>
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
                  {m.select_one()}
                </option>
                {groups.map((group) => (
                  <optgroup key={group.name} label={labels[group.name] ?? group.name}>
                    {group.subcategories.map((sub) => (
                      <option key={sub} value={categoryKey(group.name, sub)}>
                        {labels[sub] ?? sub}
                      </option>
                    ))}
                  </optgroup>
                ))}
              </select>
              <FieldError id={`writein-${row.id}-category-error`} message={error(names.category)} />
            </div>
            <button type="button" className="button button-secondary button-small" onClick={() => remove(row.id, index)}>
              {m.write_in_remove()}
              <span className="visually-hidden"> {m.write_in_remove_which({ n: index + 1 })}</span>
            </button>
          </fieldset>
        );
      })}
      {rows.length > 0 && <p className="note">{m.write_in_note()}</p>}
      <button
        ref={addButton}
        type="button"
        id="add-write-in"
        className="button button-secondary"
        onClick={add}
        aria-disabled={full || undefined}
        aria-describedby={full ? 'write-in-limit' : undefined}
      >
        {m.write_in_add()}
      </button>
      {full && (
        <p className="note" id="write-in-limit">
          {m.write_in_limit_note({ count: limit })}
        </p>
      )}
    </section>
  );
}
