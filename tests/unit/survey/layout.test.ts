import { describe, expect, test } from 'vitest';
import type { ConfigError } from '../../../src/survey/errors.ts';
import { loadSurvey } from '../../../src/survey/config/loader.ts';
import { ballotSlots, slotGroups, slotPlaces } from '../../../src/survey/config/layout.ts';
import { slotName } from '../../../src/survey/ballots/ballot-keys.ts';
import { copySurveys, editSurvey } from '../../support/survey-fixture.ts';

const config = {
  votes_per_category: 2,
  categories: { Medicine: ['Cardiology', 'Dermatology'], Surgery: ['Hand'], ADS: { Medicine: ['https://example.org/ad.png'] } },
};

describe('slotGroups: votes_per_category slots in each sub-category, by group', () => {
  test('groups and sub-categories in the configuration’s order, ADS left out, each slot named for the form', () => {
    expect(slotGroups(config).map((group) => [group.name, group.subcategories.map((sub) => [sub.name, sub.slots.map((slot) => slot.name)])])).toEqual([
      [
        'Medicine',
        [
          ['Cardiology', [slotName('Medicine', 'Cardiology', 1), slotName('Medicine', 'Cardiology', 2)]],
          ['Dermatology', [slotName('Medicine', 'Dermatology', 1), slotName('Medicine', 'Dermatology', 2)]],
        ],
      ],
      ['Surgery', [['Hand', [slotName('Surgery', 'Hand', 1), slotName('Surgery', 'Hand', 2)]]]],
    ]);
  });

  test.each([1, 3, 5])('%i slot(s) a sub-category: ballotSlots reads the same slots flat', (votes) => {
    const survey = { ...config, votes_per_category: votes };
    const grouped = slotGroups(survey).flatMap((group) => group.subcategories.flatMap((sub) => sub.slots));
    expect(grouped).toHaveLength(3 * votes);
    expect(ballotSlots(survey)).toEqual(grouped);
    expect(grouped.filter((slot) => slot.subcategory === 'Hand').map((slot) => slot.slot)).toEqual(Array.from({ length: votes }, (_, i) => i + 1));
  });
});

describe('slotPlaces: a stored slot’s place among the ballot’s slots', () => {
  const placeOf = slotPlaces(config);

  test.each<[string, string, string, number, number | undefined]>([
    ['the first slot', 'Medicine', 'Cardiology', 1, 0],
    ['the last slot of a sub-category', 'Medicine', 'Cardiology', 2, 1],
    ['a later sub-category', 'Medicine', 'Dermatology', 1, 2],
    ['a later group', 'Surgery', 'Hand', 2, 5],
    ['a slot past votes_per_category', 'Medicine', 'Cardiology', 3, undefined],
    ['slot 0', 'Medicine', 'Cardiology', 0, undefined],
    ['a sub-category of another group', 'Surgery', 'Cardiology', 1, undefined],
    ['a sub-category no longer configured', 'Medicine', 'Podiatry', 1, undefined],
    ['the ADS group', 'ADS', 'Medicine', 1, undefined],
  ])('%s', (_name, group, subcategory, slot, expected) => {
    expect(placeOf(group, subcategory, slot)).toBe(expected);
  });

  test('every slot of ballotSlots is found at its own place', () => {
    expect(ballotSlots(config).map(({ group, subcategory, slot }) => placeOf(group, subcategory, slot))).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('a survey file whose vote requirement the ballot cannot meet', () => {
  // best-dentists-2024: three sub-categories; 5 slots each and 5 write-ins are 20 places for votes.
  test.each<[string, number, number, boolean]>([
    ['as many votes as places', 5, 20, true],
    ['one vote more than places', 5, 21, false],
    ['fewer slots a sub-category, fewer places', 2, 11, true],
    ['fewer slots a sub-category, one vote too many', 2, 12, false],
  ])('%s', (_name, votesPerCategory, requirement, loads) => {
    const dir = copySurveys();
    editSurvey(dir, 'best-dentists-2024', ['votes_per_category'], votesPerCategory);
    editSurvey(dir, 'best-dentists-2024', ['vote_requirement'], requirement);
    let error: unknown;
    try {
      loadSurvey('best-dentists-2024', dir);
    } catch (caught) {
      error = caught;
    }
    if (loads) expect(error).toBeUndefined();
    else
      expect((error as ConfigError).problems).toContainEqual(
        expect.objectContaining({ path: 'vote_requirement', message: 'is more than the ballot has places for votes' }),
      );
  });
});
