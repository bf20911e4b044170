import type { FieldDef } from './field.struct.ts';
import type { SurveyConfig } from './config.struct.ts';

/** The name of the category group that holds advertisement images per category (SPEC.md §3). */
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

/** The advertisement image URLs configured for one category group. */
export function adsFor(config: Pick<SurveyConfig, 'categories'>, group: string): string[] {
  return (config.categories[ADS_GROUP] as Record<string, string[]> | undefined)?.[group] ?? [];
}
