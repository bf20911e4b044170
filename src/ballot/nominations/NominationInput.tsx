import { recountVotes } from '../writeins/writeins.ts';
import { useEffect, useRef, useState, type ClipboardEvent, type FocusEvent, type KeyboardEvent } from 'react';
import { useStore } from '@nanostores/react';
import { $nominations, $nomineeNames, clearNominee, pickNominee, duplicateNote } from './nominations.ts';
import {
  $suggestions,
  closeSuggestions,
  findExactNominee,
  hideSuggestions,
  moveActive,
  prepareSearch,
  reportPick,
  setActive,
  typeQuery,
  uniqueExactHit,
} from '../../search/suggestions.ts';
import { afterPress } from '../fields/pointer-press.ts';
import type { NomineeHit } from '../../survey/nominees/nominee-search.ts';
import { slotId, goToWriteIns, WRITE_INS_ID } from '../anchors.ts';
import { m } from '../../i18n/messages.ts';

interface Props {
  /** The slot's form-data name, `nominations[group][sub-category][n]`. */
  slot: string;
  /** The input's accessible name: "Cardiology, First Nomination". */
  label: string;
  placeholder: string;
  /** The sub-category as the page shows it, for the note on a nominee picked twice. */
  subcategoryLabel?: string;
}

/** The text under a suggestion's name that tells nominees of one name apart. */
function details(hit: NomineeHit): string {
  return [hit.specialty, hit.practice, hit.city].filter(Boolean).join(' · ');
}

/** What tells a picked nominee from a namesake, in a line under the slot: specialty · city. */
function pickedDetails(hit: NomineeHit): string {
  return [hit.specialty, hit.city].filter(Boolean).join(' · ');
}

/** Why typed text left the slot (docs/spec.md, "Nominations": only a picked suggestion is kept). */
function notKeptNote(text: string): string {
  return m.nomination_not_kept({ text });
}

/**
 * One nomination slot: a combobox (WAI-ARIA APG "editable combobox with list autocomplete")
 * whose suggestions come from the nominee search. Only a picked suggestion fills the slot.
 */
export function NominationInput({ slot, label, placeholder, subcategoryLabel }: Props) {
  const id = slotId(slot);
  const listId = `${id}-list`;
  const picked = useStore($nominations, { ssr: 'initial' })[slot];
  const suggestions = useStore($suggestions, { ssr: 'initial' });
  const pickedName = useStore($nomineeNames, { ssr: 'initial' })[slot];
  const [text, setText] = useState('');
  const [note, setNote] = useState('');
  const [shown, setShown] = useState<string>('');
  // Set by a paste or by Enter while suggestions are on their way: pick the one exact match when they come.
  const pickExact = useRef(false);
  const wrapper = useRef<HTMLDivElement>(null);

  // A slot filled or emptied from outside (a restored draft, a cleared ballot) shows it; an
  // unpicked slot the voter is not typing in is always empty (docs/spec.md, "Nominations").
  useEffect(() => {
    if (picked && pickedName) setText(pickedName);
    else if (!picked && !wrapper.current?.contains(document.activeElement)) setText('');
  }, [picked, pickedName]);

  const mine = suggestions.slot === slot;
  const showList = mine && suggestions.open && suggestions.hits.length > 0;
  const showEmpty = mine && suggestions.status === 'done' && suggestions.nbHits === 0 && text.trim() !== '';
  const showError = mine && suggestions.status === 'error';

  const choose = (hit: NomineeHit) => {
    pickExact.current = false;
    const result = pickNominee(slot, hit.id, hit.name);
    setText(result.ok ? hit.name : '');
    setShown(result.ok ? pickedDetails(hit) : '');
    setNote(result.ok ? '' : duplicateNote(hit.name, result.duplicateOf, subcategoryLabel));
    if (result.ok) reportPick(hit);
    closeSuggestions(slot);
  };

  const onChange = (value: string) => {
    setText(value);
    setNote('');
    setShown('');
    if (picked) clearNominee(slot);
    typeQuery(slot, value);
  };

  // A pasted name, or Enter pressed before the suggestions came: the one suggestion that is exactly the text is picked.
  useEffect(() => {
    if (!pickExact.current || !mine || suggestions.status !== 'done' || suggestions.query !== text.trim()) return;
    pickExact.current = false;
    const hit = uniqueExactHit(suggestions.hits, text);
    if (hit) choose(hit);
  });

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    if (event.clipboardData.getData('text').trim()) pickExact.current = true;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      moveActive(event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'Enter') {
      // Enter picks the highlighted suggestion, or the one that is exactly the text; it never submits the ballot from here.
      event.preventDefault();
      if (picked) return;
      if (showList && suggestions.active >= 0) return choose(suggestions.hits[suggestions.active]);
      const ready = mine && suggestions.status === 'done' && suggestions.query === text.trim();
      const hit = ready ? uniqueExactHit(suggestions.hits, text) : undefined;
      if (hit) choose(hit);
      else if (!ready && text.trim()) {
        pickExact.current = true;
        // No search on its way (Escape forgot it): ask again, so that the exact match can be picked when it comes.
        if (!(mine && suggestions.status === 'waiting')) typeQuery(slot, text);
      }
    } else if (event.key === 'Escape') {
      if (showList) hideSuggestions();
      else if (!picked) onChange('');
    }
  };

  // Leaving the slot (focus not moving into its own suggestions) keeps only a pick (docs/spec.md, "Nominations"): text that is
  // exactly one nominee's name is picked; other text is cleared, with a word on why, once the tap has landed.
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (wrapper.current?.contains(event.relatedTarget as Node | null)) return;
    const typed = text.trim();
    const settle = (hit: NomineeHit | undefined) =>
      afterPress(() => {
        if ($nominations.get()[slot]) return;
        if (hit) choose(hit);
        else {
          closeSuggestions(slot);
          setText('');
          setNote(notKeptNote(typed));
        }
        recountVotes();
      });
    pickExact.current = false;
    if (picked || !typed) {
      closeSuggestions(slot);
      if (!picked) setText('');
      recountVotes();
      return;
    }
    void findExactNominee(slot, typed).then(settle);
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
        aria-describedby={[note && `${id}-note`, picked && shown && `${id}-picked`].filter(Boolean).join(' ') || undefined}
        onFocus={() => void prepareSearch().catch(() => undefined)}
        onChange={(event) => onChange(event.target.value)}
        onPaste={onPaste}
        onKeyDown={onKeyDown}
      />
      {picked && <input type="hidden" name={slot} value={picked} />}
      {picked && shown && (
        <p className="slot-picked" id={`${id}-picked`}>
          {shown}
        </p>
      )}
      <div className="visually-hidden" role="status" aria-live="polite">
        {mine && suggestions.status === 'done' && suggestions.open
          ? suggestions.nbHits === 0
            ? m.suggestions_none()
            : m.suggestions_count({ count: suggestions.hits.length })
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
            <ul id={listId} role="listbox" aria-label={m.suggestions_for({ label })} translate="no">
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
          {showError && <p className="suggestions-message">{m.search_unavailable()}</p>}
          {showEmpty && (
            <p className="suggestions-footer">
              {m.cant_find_nominee()}{' '}
              <a
                href={`#${WRITE_INS_ID}`}
                onClick={(event) => {
                  if (goToWriteIns()) event.preventDefault();
                  closeSuggestions(slot);
                  if (!picked) setText('');
                }}
              >
                {m.cant_find_click_here()}
              </a>{' '}
              {m.cant_find_or_scroll()}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
