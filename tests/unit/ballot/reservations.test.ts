import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { create } from 'superstruct';
import { SurveyConfig } from '../../../src/survey/config/config.struct.ts';
import { tileViews, outcomeFields } from '../../../src/survey/ballots/tiles.ts';
import { outcomeLine, tileLabel } from '../../../src/survey/ballots/reservation-outcome.ts';
import { $reservations, selectTile, setCustomReservation } from '../../../src/ballot/reservations/reservations.ts';
import { $lookups, loadReservations } from '../../../src/ballot/reservations/lookups.ts';
import { $takenTiles } from '../../../src/ballot/validation.ts';

const config = create(
  {
    project_id: 'unit',
    categories: { Medicine: ['Cardiology'] },
    layout: [
      [{ name: 'nomination', type: 'nomination' }],
      [
        { name: 'faces', type: 'faces' },
        { name: 'expert', type: 'asktheexpert' },
      ],
    ],
    faces: ['Sports Medicine', { title: 'Orthopedic Surgery', taken: true }, { title: 'Ear, Nose & Throat', slug: 'ent' }],
    asktheexpert: ['Is coffee good for me?'],
  },
  SurveyConfig,
);

describe('tiles as a page shows them', () => {
  it('names each tile by its slug, as the server does, and keeps the survey’s taken flag', () => {
    expect(tileViews(config, 'faces')).toEqual([
      { slug: 'sports-medicine', title: 'Sports Medicine', taken: false },
      { slug: 'orthopedic-surgery', title: 'Orthopedic Surgery', taken: true },
      { slug: 'ent', title: 'Ear, Nose & Throat', taken: false },
    ]);
    expect(tileViews(config, 'asktheexpert')).toEqual([{ slug: 'is-coffee-good-for-me', title: 'Is coffee good for me?', taken: false }]);
  });

  it('reads THE FACE OF {title} for Faces and the question itself for Experts', () => {
    expect(tileLabel('faces', 'Cardiology')).toBe('THE FACE OF Cardiology');
    expect(tileLabel('asktheexpert', 'Is coffee good for me?')).toBe('Is coffee good for me?');
  });
});

describe('the thank-you page’s words for a reservation', () => {
  const fields = outcomeFields(config);

  it('knows each reservation field’s kind and its tiles’ titles', () => {
    expect(fields).toEqual([
      {
        field: 'faces',
        kind: 'faces',
        titles: { 'sports-medicine': 'Sports Medicine', 'orthopedic-surgery': 'Orthopedic Surgery', ent: 'Ear, Nose & Throat' },
      },
      { field: 'expert', kind: 'asktheexpert', titles: { 'is-coffee-good-for-me': 'Is coffee good for me?' } },
    ]);
  });

  it.each([
    [{ field: 'faces', tile: 'ent', status: 'reserved' }, 'THE FACE OF Ear, Nose & Throat is reserved for you.'],
    [{ field: 'expert', tile: 'is-coffee-good-for-me', status: 'reserved' }, 'The expert question “Is coffee good for me?” is reserved for you for five days.'],
    [
      { field: 'faces', tile: 'sports-medicine', status: 'lost' },
      'THE FACE OF Sports Medicine was taken by another ballot that arrived before yours, so it could not be reserved for you. Your ballot was received and counts all the same.',
    ],
    [
      { field: 'expert', tile: 'is-coffee-good-for-me', status: 'lost' },
      'The expert question “Is coffee good for me?” was taken by another ballot that arrived before yours, so it could not be reserved for you. Your ballot was received and counts all the same.',
    ],
    [{ field: 'faces', tile: 'Geriatrics', status: 'custom' }, 'Your own specialty, “Geriatrics”, was received with your ballot.'],
    [{ field: 'expert', tile: 'Is tea better?', status: 'custom' }, 'Your own expert question, “Is tea better?”, was received with your ballot.'],
  ] as const)('%o reads “%s”', (outcome, text) => {
    expect(outcomeLine(outcome, fields)).toEqual({ status: outcome.status, text });
  });

  it('falls back to the slug for a tile the page does not know', () => {
    expect(outcomeLine({ field: 'faces', tile: 'retired-tile', status: 'reserved' }, fields).text).toBe('THE FACE OF retired-tile is reserved for you.');
  });
});

describe('the reservation look-up', () => {
  const tiles = tileViews(config, 'faces');
  const answer = (body: unknown, status = 200) => vi.fn(async () => new Response(JSON.stringify(body), { status }));

  beforeEach(() => {
    $reservations.set({});
    $takenTiles.set({});
    $lookups.set({});
  });
  afterEach(() => vi.unstubAllGlobals());

  it('puts the taken tiles, named by slug or by title, into $takenTiles for the ballot check', async () => {
    const fetch = answer({ taken: ['ent', 'Sports Medicine', 'unknown-tile'], confirmed: ['Dr. Past'] });
    vi.stubGlobal('fetch', fetch);
    await loadReservations('unit', 'faces', 'faces', tiles);
    expect(fetch).toHaveBeenCalledWith('/api/survey/faces/unit', expect.objectContaining({ cache: 'no-store' }));
    expect($takenTiles.get()).toEqual({ faces: ['sports-medicine', 'orthopedic-surgery', 'ent'] });
    expect($lookups.get()).toEqual({ faces: { status: 'ready', confirmed: ['Dr. Past'] } });
  });

  it('asks the Experts look-up for Experts', async () => {
    const fetch = answer({ taken: [], confirmed: [] });
    vi.stubGlobal('fetch', fetch);
    await loadReservations('unit', 'asktheexpert', 'expert', tileViews(config, 'asktheexpert'));
    expect(fetch).toHaveBeenCalledWith('/api/survey/experts/unit', expect.anything());
  });

  it('lets go of a selected tile that turns out taken, and keeps one that is free', async () => {
    selectTile('faces', 'ent');
    vi.stubGlobal('fetch', answer({ taken: ['ent'], confirmed: [] }));
    await loadReservations('unit', 'faces', 'faces', tiles);
    expect($reservations.get().faces).toBeUndefined();
    selectTile('faces', 'sports-medicine');
    await loadReservations('unit', 'faces', 'faces', tiles);
    expect($reservations.get().faces).toEqual({ tile: 'sports-medicine' });
  });

  it('reports an error for a failed answer or a network error, for the section to offer a retry', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.stubGlobal('fetch', answer({ error: 'down' }, 503));
    await loadReservations('unit', 'faces', 'faces', tiles);
    expect($lookups.get().faces).toEqual({ status: 'error' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await loadReservations('unit', 'faces', 'faces', tiles);
    expect($lookups.get().faces).toEqual({ status: 'error' });
  });

  it('a tile and the custom text exclude each other', () => {
    setCustomReservation('faces', 'Geriatrics');
    selectTile('faces', 'ent');
    expect($reservations.get().faces).toEqual({ tile: 'ent' });
    setCustomReservation('faces', '');
    expect($reservations.get().faces).toEqual({ custom: '' });
  });
});
