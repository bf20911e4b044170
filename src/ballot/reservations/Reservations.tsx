import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { $reservations, selectTile, setCustomReservation } from './reservations.ts';
import { $lookups, loadReservations } from './lookups.ts';
import { $attempted, $problems, $takenTiles, $touched } from '../validation.ts';
import { touch } from '../store.ts';
import { customReservationName } from '../../survey/ballots/ballot-keys.ts';
import type { ReservationKind, TileView } from '../../survey/ballots/tiles.ts';
import type { ReservationWords } from '../../survey/ballots/reservation-words.ts';
import { FieldError } from '../fields/FieldError.tsx';
import { m } from '../../i18n/messages.ts';

interface Props {
  field: { name: string; label?: string; type: ReservationKind };
  /** The section's words (src/survey/ballots/reservation-words.ts), handed in so that the script carries neither kind's. */
  words: ReservationWords;
  projectId: string;
  tiles: TileView[];
  /** The past participants or experts the survey lists, shown until the look-up answers. */
  confirmed: string[];
}

/** A reservation section: tiles to pick one from (taken ones GONE), the voter's own text, and who came before. */
export default function Reservations({ field, words, projectId, tiles, confirmed }: Props) {
  const kind = field.type;
  const lookup = useStore($lookups, { ssr: 'initial' })[kind];
  const taken = useStore($takenTiles, { ssr: 'initial' })[kind] ?? [];
  const choice = useStore($reservations, { ssr: 'initial' })[field.name];
  const problems = useStore($problems, { ssr: 'initial' });
  const custom = customReservationName(field.name);
  const attempted = useStore($attempted, { ssr: 'initial' });
  const touched = useStore($touched, { ssr: 'initial' })[custom];
  const tileError = attempted ? problems[field.name] : undefined;
  const customError = attempted || touched ? problems[custom] : undefined;
  const error = tileError ?? customError;
  const load = () => loadReservations(projectId, kind, field.name, tiles);
  useEffect(() => void load(), []);

  const id = `field-${field.name}`;
  const past = lookup?.confirmed ?? confirmed;
  return (
    <section className="field reservation" aria-labelledby={`${id}-title`} translate="no">
      <h2 id={`${id}-title`}>{field.label ?? words.title}</h2>
      <p className="note">{words.intro}</p>
      {lookup?.status === 'error' ? (
        <div className="notice-warning" role="alert">
          <p>{m.reservations_failed()}</p>
          <button type="button" className="button button-secondary" onClick={load}>
            {m.try_again()}
          </button>
        </div>
      ) : (
        tiles.length > 0 && (
          <div
            className={kind === 'faces' ? 'tiles' : 'tiles tiles-wide'}
            role="radiogroup"
            aria-labelledby={`${id}-title`}
            aria-busy={lookup?.status === 'loading'}
            aria-invalid={Boolean(tileError) || undefined}
            aria-describedby={tileError ? `${id}-error` : undefined}
            id={id}
          >
            {tiles.map((tile) => {
              const gone = tile.taken || taken.includes(tile.slug);
              const reserved = !gone && choice?.tile === tile.slug;
              return (
                <label key={tile.slug} className={`tile${gone ? ' is-gone' : reserved ? ' is-reserved' : ''}`}>
                  <input
                    type="radio"
                    name={field.name}
                    value={tile.slug}
                    checked={reserved}
                    disabled={gone}
                    onChange={() => selectTile(field.name, tile.slug)}
                  />
                  {kind === 'faces' && <span className="tile-kicker">{m.faces_kicker()} </span>}
                  <span>{tile.title}</span>
                  {gone && <span className="tile-banner">{m.tile_gone()}</span>}
                  {reserved && (
                    <span className="tile-banner" aria-hidden="true">
                      {m.tile_reserved()}
                    </span>
                  )}
                </label>
              );
            })}
          </div>
        )
      )}
      <label htmlFor={`${id}-custom`}>{words.custom}</label>
      <input
        id={`${id}-custom`}
        className="input"
        name={custom}
        placeholder={words.placeholder}
        value={choice?.custom ?? ''}
        aria-invalid={Boolean(customError) || undefined}
        aria-describedby={customError ? `${id}-error` : undefined}
        onClick={() => choice?.tile && setCustomReservation(field.name, '')}
        onChange={(event) => setCustomReservation(field.name, event.target.value)}
        onBlur={() => touch(custom)}
      />
      <FieldError id={`${id}-error`} message={error} />
      {past.length > 0 && (
        <>
          <h3>{words.past}</h3>
          <ul className="past">
            {past.map((name) => (
              <li key={name}>{name}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
