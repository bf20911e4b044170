import { afterEach, describe, expect, it, vi } from 'vitest';
import { categorySeries, daySeries, filterWorkplaces, rankWorkplaces, totalNominations } from '../../../src/survey/api/stats.ts';
import { $figures, loadFigures } from '../../../src/figures/figures.ts';

describe('ballots per day', () => {
  it('fills the quiet days between the first and the last with zero', () => {
    expect(
      daySeries([
        { day: '2030-12-30', ballots: 2 },
        { day: '2031-01-02', ballots: 5 },
      ]),
    ).toEqual([
      { day: '2030-12-30', ballots: 2 },
      { day: '2030-12-31', ballots: 0 },
      { day: '2031-01-01', ballots: 0 },
      { day: '2031-01-02', ballots: 5 },
    ]);
  });

  it('is empty without ballots, and keeps at most the last 366 days', () => {
    expect(daySeries([])).toEqual([]);
    const days = daySeries([
      { day: '2028-01-01', ballots: 1 },
      { day: '2031-06-30', ballots: 3 },
    ]);
    expect(days).toHaveLength(366);
    expect(days.at(-1)).toEqual({ day: '2031-06-30', ballots: 3 });
  });
});

describe('nominations per category', () => {
  const groups = [
    { name: 'Primary Care', subcategories: ['Family Medicine', 'Pediatrics'] },
    { name: 'Surgery', subcategories: ['Neurosurgery'] },
  ];

  it('lists every sub-category in the survey’s order, those without nominations as zero, and keeps ones the page does not know', () => {
    const counts = [
      { group: 'Surgery', subcategory: 'Neurosurgery', nominations: 4 },
      { group: 'Primary Care', subcategory: 'Pediatrics', nominations: 2 },
      { group: 'Retired', subcategory: 'Old', nominations: 1 },
    ];
    expect(categorySeries(groups, counts)).toEqual([
      { group: 'Primary Care', subcategory: 'Family Medicine', nominations: 0 },
      { group: 'Primary Care', subcategory: 'Pediatrics', nominations: 2 },
      { group: 'Surgery', subcategory: 'Neurosurgery', nominations: 4 },
      { group: 'Retired', subcategory: 'Old', nominations: 1 },
    ]);
    expect(totalNominations({ nominations_per_category: counts })).toBe(7);
  });
});

describe('workplaces', () => {
  const workplaces = [
    { name: 'St. Mary', ballots: 9 },
    { name: 'Lakeside', ballots: 5 },
    { name: 'Hilltop', ballots: 5 },
    { name: 'North  Clinic', ballots: 3 },
    { name: 'Other', ballots: 12 },
  ];

  it('ranks them, equal counts sharing a place; Other has none', () => {
    expect(rankWorkplaces(workplaces).map((w) => [w.rank, w.name])).toEqual([
      [1, 'St. Mary'],
      [2, 'Lakeside'],
      [2, 'Hilltop'],
      [4, 'North  Clinic'],
      [undefined, 'Other'],
    ]);
  });

  it.each([
    ['', 5],
    ['lake', 1],
    ['  north clinic ', 1],
    ['ST. MARY', 1],
    ['nowhere', 0],
  ])('the filter “%s” finds %i', (query, found) => {
    expect(filterWorkplaces(workplaces, query)).toHaveLength(found);
  });
});

describe('the figures store', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('keeps the last figures when a refresh fails, marked as an error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ ballots: 3 }))),
    );
    await loadFigures('/api/survey/stats/x');
    expect($figures.get()).toMatchObject({ status: 'ready', figures: { ballots: 3 } });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{}', { status: 502 })),
    );
    await loadFigures('/api/survey/stats/x');
    expect($figures.get()).toMatchObject({ status: 'error', figures: { ballots: 3 } });
  });
});
