import type { FieldDef } from './field.struct.ts';
import type { SurveyConfig } from './config.struct.ts';
import { categoryKey, slotName } from './ballot-keys.ts';

/** The name of the category group that holds advertisement images per category (docs/spec.md, "Nominations"). */
export const ADS_GROUP = 'ADS';

/** Every field of a layout, nested subfields included, in reading order (nested parents excluded). */
export function allFields(layout: FieldDef[][]): FieldDef[] {
  return layout.flat().flatMap((field) => (field.type === 'nested' ? allFields([field.fields ?? []]) : [field]));
}

/** The category groups with their sub-categories, ADS left out. */
export function categoryGroups(config: Pick<SurveyConfig, 'categories'>): Array<{ name: string; subcategories: string[] }> {
  return Object.entries(config.categories)
    .filter(([name]) => name !== ADS_GROUP)
    .map(([name, subcategories]) => ({ name, subcategories: subcategories as string[] }));
}

/** One sub-category a vote can go to, with the key a write-in's category select gives it. */
export interface BallotCategory {
  group: string;
  subcategory: string;
  key: string;
}

/** Every sub-category of the ballot, group by group, in the configuration's order. */
export function ballotCategories(config: Pick<SurveyConfig, 'categories'>): BallotCategory[] {
  return categoryGroups(config).flatMap(({ name, subcategories }) =>
    subcategories.map((subcategory) => ({ group: name, subcategory, key: categoryKey(name, subcategory) })),
  );
}

/** One nomination slot of the ballot (slot counts from 1), with its form-data name. */
export interface BallotSlot {
  group: string;
  subcategory: string;
  slot: number;
  name: string;
}

/** Every nomination slot of the ballot: group × sub-category × slot, in the order the page shows them. */
export function ballotSlots(config: Pick<SurveyConfig, 'categories' | 'votes_per_category'>): BallotSlot[] {
  return categoryGroups(config).flatMap(({ name: group, subcategories }) =>
    subcategories.flatMap((subcategory) =>
      Array.from({ length: config.votes_per_category }, (_, i) => ({ group, subcategory, slot: i + 1, name: slotName(group, subcategory, i + 1) })),
    ),
  );
}

/** The advertisement image URLs configured for one category group. */
export function adsFor(config: Pick<SurveyConfig, 'categories'>, group: string): string[] {
  return (config.categories[ADS_GROUP] as Record<string, string[]> | undefined)?.[group] ?? [];
}
