import { recountVotes } from '../../stores/votes.ts';
import { useEffect, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { useStore } from '@nanostores/react';
import { $nominations, $nomineeNames, clearNominee, pickNominee } from '../../stores/nominations.ts';
import { $suggestions, closeSuggestions, hideSuggestions, moveActive, prepareSearch, setActive, typeQuery } from '../../stores/suggestions.ts';
import type { NomineeHit } from '../../survey/nominee-search.ts';
import { duplicateNote, slotId } from './slots.ts';
import { goToWriteIns, WRITE_INS_ID } from './write-ins.ts';

interface Props {
  /** The slot's form-data name, `nominations[group][sub-category][n]`. */
  slot: string;
  /** The input's accessible name: "Cardiology, First Nomination". */
  label: string;
  placeholder: string;
}

/** The text under a suggestion's name that tells nominees of one name apart. */
function details(hit: NomineeHit): string {
  return [hit.specialty, hit.practice, hit.city].filter(Boolean).join(' · ');
}

/**
 * One nomination slot: a combobox (WAI-ARIA APG "editable combobox with list autocomplete")
 * whose suggestions come from the nominee search. Only a picked suggestion fills the slot.
 */
export function NominationInput({ slot, label, placeholder }: Props) {
  const id = slotId(slot);
  const listId = `${id}-list`;
  const picked = useStore($nominations)[slot];
  const suggestions = useStore($suggestions);
  const pickedName = useStore($nomineeNames)[slot];
  const [text, setText] = useState('');
  const [note, setNote] = useState('');
  const wrapper = useRef<HTMLDivElement>(null);

  // A slot filled or emptied from outside (a restored draft, a cleared ballot) shows it; an
  // unpicked slot the voter is not typing in is always empty (SPEC.md §4).
  useEffect(() => {
    if (picked && pickedName) setText(pickedName);
    else if (!picked && !wrapper.current?.contains(document.activeElement)) setText('');
  }, [picked, pickedName]);

  const mine = suggestions.slot === slot;
  const showList = mine && suggestions.open && suggestions.hits.length > 0;
  const showEmpty = mine && suggestions.status === 'done' && suggestions.nbHits === 0 && text.trim() !== '';
  const showError = mine && suggestions.status === 'error';

  const choose = (hit: NomineeHit) => {
    const result = pickNominee(slot, hit.id, hit.name);
    setText(result.ok ? hit.name : '');
    setNote(result.ok ? '' : duplicateNote(hit.name, result.duplicateOf));
    closeSuggestions(slot);
  };

  const onChange = (value: string) => {
    setText(value);
    setNote('');
    if (picked) clearNominee(slot);
    typeQuery(slot, value);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      moveActive(event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'Enter') {
      // Enter picks the highlighted suggestion; it never submits the ballot from here.
      event.preventDefault();
      if (showList && suggestions.active >= 0) choose(suggestions.hits[suggestions.active]);
    } else if (event.key === 'Escape') {
      if (showList) hideSuggestions();
      else if (!picked) onChange('');
    }
  };

  // Leaving the slot (focus not moving into its own suggestions) clears text that was not picked (SPEC.md §4).
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (wrapper.current?.contains(event.relatedTarget as Node | null)) return;
    closeSuggestions(slot);
    if (!picked) setText('');
    recountVotes();
  };

  const activeId = showList && suggestions.active >= 0 ? `${id}-option-${suggestions.active}` : undefined;
  return (
    <div className="slot" ref={wrapper} onBlur={onBlur}>
      <label className="visually-hidden" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        // Only a form posted without JavaScript sends the typed text: the API keeps it as a write-in.
        name={slot}
        className={`input${picked ? ' is-picked' : ''}`}
        type="text"
        role="combobox"
        translate="no"
        autoComplete="off"
        autoCapitalize="words"
        spellCheck={false}
        placeholder={placeholder}
        value={text}
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={showList ? listId : undefined}
        aria-activedescendant={activeId}
        aria-describedby={note ? `${id}-note` : undefined}
        onFocus={() => void prepareSearch().catch(() => undefined)}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
      />
      {picked && <input type="hidden" name={slot} value={picked} />}
      <div className="visually-hidden" role="status" aria-live="polite">
        {mine && suggestions.status === 'done' && suggestions.open
          ? suggestions.nbHits === 0
            ? 'No nominee found.'
            : `${suggestions.hits.length} suggestions. Use the up and down arrow keys to choose, Enter to pick.`
          : ''}
      </div>
      {note && (
        <p className="slot-note" id={`${id}-note`} role="alert">
          {note}
        </p>
      )}
      {(showList || showEmpty || showError) && (
        <div className="suggestions" onMouseDown={(event) => event.preventDefault()}>
          {showList && (
            <ul id={listId} role="listbox" aria-label={`Suggestions for ${label}`} translate="no">
              {suggestions.hits.map((hit, i) => (
                <li
                  key={hit.objectID}
                  id={`${id}-option-${i}`}
                  role="option"
                  aria-selected={i === suggestions.active}
                  className={i === suggestions.active ? 'suggestion is-active' : 'suggestion'}
                  onMouseMove={() => i !== suggestions.active && setActive(i)}
                  onClick={() => choose(hit)}
                >
                  <span className="suggestion-name">{hit.name}</span>
                  {details(hit) && <span className="suggestion-details">{details(hit)}</span>}
                </li>
              ))}
            </ul>
          )}
          {showError && <p className="suggestions-message">Search is not available right now. Please try again in a moment.</p>}
          {showEmpty && (
            <p className="suggestions-footer">
              Can't find your nominee?{' '}
              <a
                href={`#${WRITE_INS_ID}`}
                onClick={(event) => {
                  if (goToWriteIns()) event.preventDefault();
                  closeSuggestions(slot);
                  if (!picked) setText('');
                }}
              >
                CLICK HERE
              </a>{' '}
              or scroll down to add.
            </p>
          )}
        </div>
      )}
    </div>
  );
}
