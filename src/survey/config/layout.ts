import type { FieldDef } from './field.struct.ts';
import { categoryKey, slotName } from '../ballots/ballot-keys.ts';

/** The name of the category group that holds advertisement images per category (docs/spec.md, "Nominations"). */
export const ADS_GROUP = 'ADS';

/**
 * A survey's categories as its file gives them: group name → its sub-categories, and under
 * ADS_GROUP a group's name → its advertisement images. config.struct.ts checks them in this shape;
 * the helpers here read them without importing the config's struct, which the browser does not load.
 */
export type CategoriesShape = Record<string, string[] | Record<string, string[]>>;

/** Every field of a layout, nested subfields included, in reading order (nested parents excluded). */
export function allFields(layout: FieldDef[][]): FieldDef[] {
  return layout.flat().flatMap((field) => (field.type === 'nested' ? allFields([field.fields ?? []]) : [field]));
}

/** The category groups with their sub-categories, ADS left out. */
export function categoryGroups(config: { categories: CategoriesShape }): Array<{ name: string; subcategories: string[] }> {
  return Object.entries(config.categories)
    .filter(([name]) => name !== ADS_GROUP)
    .map(([name, subcategories]) => ({ name, subcategories: subcategories as string[] }));
}

/** A category's or sub-category's words as the page shows them: its label in the page's language, else its key. */
export function categoryLabel(config: { category_labels?: Record<string, string> }, key: string): string {
  return config.category_labels?.[key] ?? key;
}

/** An option's words as the field shows them: its label in the page's language, else the option itself (the value sent). */
export function optionLabel(field: { option_labels?: Record<string, string> }, option: string): string {
  return field.option_labels?.[option] ?? option;
}

/** One sub-category a vote can go to, with the key a write-in's category select gives it. */
export interface BallotCategory {
  group: string;
  subcategory: string;
  key: string;
}

/** Every sub-category of the ballot, group by group, in the configuration's order. */
export function ballotCategories(config: { categories: CategoriesShape }): BallotCategory[] {
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

/** What the slots are made of: the categories and the slots per sub-category. */
export type SlotConfig = { categories: CategoriesShape; votes_per_category: number };

/** A category group with its sub-categories, each with its nomination slots, as the nominations section shows them. */
export interface SlotGroup {
  name: string;
  subcategories: Array<{ name: string; slots: BallotSlot[] }>;
}

/**
 * The ballot's nomination slots by group and sub-category: votes_per_category slots in each
 * sub-category, numbered from 1. The one place a ballot's slots are made: the nominations
 * section draws these, and every other side reads them flat (ballotSlots, slotPlaces).
 */
export function slotGroups(config: SlotConfig): SlotGroup[] {
  return categoryGroups(config).map(({ name: group, subcategories }) => ({
    name: group,
    subcategories: subcategories.map((subcategory) => ({
      name: subcategory,
      slots: Array.from({ length: config.votes_per_category }, (_, i) => ({ group, subcategory, slot: i + 1, name: slotName(group, subcategory, i + 1) })),
    })),
  }));
}

/** Every nomination slot of the ballot: group × sub-category × slot, in the order the page shows them. */
export function ballotSlots(config: SlotConfig): BallotSlot[] {
  return slotGroups(config).flatMap((group) => group.subcategories.flatMap((subcategory) => subcategory.slots));
}

/**
 * Finds a slot's place among ballotSlots(config) by group, sub-category and slot number:
 * undefined for a slot this ballot does not have (past votes_per_category, or of a
 * sub-category no longer configured). Two map look-ups, no key built: the export calls it for
 * every stored nomination.
 */
export function slotPlaces(config: SlotConfig): (group: string, subcategory: string, slot: number) => number | undefined {
  const places = new Map<string, Map<string, number[]>>();
  ballotSlots(config).forEach(({ group, subcategory }, i) => {
    let bySubcategory = places.get(group);
    if (!bySubcategory) places.set(group, (bySubcategory = new Map()));
    let slots = bySubcategory.get(subcategory);
    if (!slots) bySubcategory.set(subcategory, (slots = []));
    slots.push(i);
  });
  return (group, subcategory, slot) => places.get(group)?.get(subcategory)?.[slot - 1];
}

/** The advertisement image URLs configured for one category group. */
export function adsFor(config: { categories: CategoriesShape }, group: string): string[] {
  return (config.categories[ADS_GROUP] as Record<string, string[]> | undefined)?.[group] ?? [];
}
