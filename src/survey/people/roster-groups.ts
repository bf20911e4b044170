import type { PersonValues, SurveyConfig } from '../config/config.struct.ts';
import { PERSON_ROSTER_KEYS } from '../config/config.struct.ts';
import { fieldRow } from '../config/fields.ts';
import { allFields } from '../config/layout.ts';
import { voterFields } from './voter.ts';

// The roster's columns the invited people are counted by (the console's "responses by a roster
// column"): which columns qualify, and a person's value in one of them. A column that names or
// reaches one person (an address, a name, a phone, a member number, a licence, anything marked
// `personal`) is none of them: a table of its values would say, person by person, who has voted,
// to every role on the survey.

/** What rosterColumns reads of a survey. */
export type RosterSurvey = Pick<SurveyConfig, 'layout' | 'roster_columns' | 'license_field'> & Partial<Pick<SurveyConfig, 'name_fields'>>;

/** A column name that says it holds who someone is, a number or id that is theirs alone, or a way to reach or sign in as them. */
const IDENTIFYING = /(^|[^a-z])(e-?mail|name|phone|mobile|address|street|birth|dob|ssn|number|id|identifier|secret|token|password|licen[cs]e|npi)([^a-z]|$)/i;

/** The longest column name kept: a name is part of an index key. */
const LONGEST_NAME = 100;

/** The characters of a value kept for the page; a group is still told from another by its whole value. */
const VALUE_KEPT = 200;

/**
 * The columns of a survey's roster its people may be counted by, in order: the layout's answer
 * fields, then `roster_columns`, leaving out the roster's own keys (email, name, nominee_id),
 * email fields, fields marked `personal`, the voter's name and licence fields, and any column
 * whose name says it identifies someone.
 */
export function rosterColumns(config: RosterSurvey): string[] {
  const voter = voterFields(config);
  const left = new Set<string>([
    ...PERSON_ROSTER_KEYS,
    ...voter.name,
    ...[voter.email, voter.license, config.license_field].filter((name) => name !== undefined),
  ]);
  const fromLayout = allFields(config.layout)
    .filter((field) => fieldRow(field).kind === 'answer' && !fieldRow(field).email && !field.personal)
    .map((field) => field.name);
  const columns = [...new Set([...fromLayout, ...config.roster_columns])];
  return columns.filter((name) => !left.has(name) && !IDENTIFYING.test(name) && name.length <= LONGEST_NAME);
}

/** A person's value in a column as a group's name: the text trimmed (a list's entries joined by "; "), '' when they have none. */
export function groupValue(person: PersonValues, column: string): string {
  const value = person[column];
  const text = Array.isArray(value) ? value.join('; ') : (value ?? '');
  return text.trim();
}

/** Counts of a group of people: how many are invited, and how many of them have voted. */
export interface GroupCounts {
  readonly invited: number;
  readonly responded: number;
}

/**
 * The groups a table leaves out, as one row: how many values, people and respondents are not
 * among those shown; undefined when every value is shown.
 */
export function groupsLeftOut(
  total: GroupCounts & { readonly values: number },
  shown: readonly GroupCounts[],
): (GroupCounts & { readonly values: number }) | undefined {
  const values = total.values - shown.length;
  if (values <= 0) return undefined;
  const sum = (key: keyof GroupCounts) => shown.reduce((all, group) => all + group[key], 0);
  return { values, invited: Math.max(0, total.invited - sum('invited')), responded: Math.max(0, total.responded - sum('responded')) };
}

/** The share of a group that has voted, in whole percent ("62%"); a dash for a group of no one. */
export function responseShare(group: GroupCounts): string {
  if (group.invited <= 0) return '–';
  return `${Math.floor((group.responded / group.invited) * 100)}%`;
}

/** One value of one column, and its people, as a survey's people are read. */
export interface RosterGroup extends GroupCounts {
  /** Its number, from 1, in the order first met. */
  readonly id: number;
  readonly column: string;
  /** The value, its first VALUE_KEPT characters. */
  readonly value: string;
}

/**
 * The group of everyone invited: number 0, under a column name no roster column has (a column's
 * name starts with a letter). It holds the survey's invited people and respondents, so that a
 * page reads them from one row rather than counting the people.
 */
export const EVERYONE = { id: 0, column: '' } as const;

/**
 * Counts a survey's people into the groups of its roster columns, one person at a time, as they
 * are read: `add` answers the ids of the person's groups (EVERYONE's, then one a column), which
 * their first ballot later counts in. A column no person holds a value in is left out at the end.
 */
export class RosterTally {
  private readonly columns: readonly string[];
  private readonly everyone = { ...EVERYONE, value: '', invited: 0, responded: 0 };
  /** Each column's groups by value, in the order of `columns`. */
  private readonly byValue: Array<Map<string, { id: number; column: string; value: string; invited: number; responded: number }>>;
  /** Every group of every column, by id from 1. */
  private readonly all: Array<{ id: number; column: string; value: string; invited: number; responded: number }> = [];
  private readonly held = new Set<string>();

  constructor(columns: readonly string[]) {
    this.columns = columns;
    this.byValue = columns.map(() => new Map());
  }

  /** Counts one person in everyone's group and a group of each column; the ids of those groups. */
  add(person: PersonValues, responded: boolean): number[] {
    this.everyone.invited++;
    if (responded) this.everyone.responded++;
    const ids: number[] = [EVERYONE.id];
    for (let i = 0; i < this.columns.length; i++) {
      const column = this.columns[i];
      const value = groupValue(person, column);
      if (value) this.held.add(column);
      let group = this.byValue[i].get(value);
      if (!group) {
        group = { id: this.all.length + 1, column, value: value.slice(0, VALUE_KEPT), invited: 0, responded: 0 };
        this.byValue[i].set(value, group);
        this.all.push(group);
      }
      group.invited++;
      if (responded) group.responded++;
      ids.push(group.id);
    }
    return ids;
  }

  /** The columns some person holds a value in, in order, with how many distinct values each has. */
  counted(): Array<{ name: string; position: number; groups: number }> {
    return this.columns
      .map((name, i) => ({ name, groups: this.byValue[i].size }))
      .filter((column) => this.held.has(column.name))
      .map((column, position) => ({ ...column, position }));
  }

  /** Everyone's group, then every group of the columns `counted` keeps. */
  *groups(): Generator<RosterGroup> {
    yield { ...this.everyone };
    for (const group of this.all) if (this.held.has(group.column)) yield { ...group };
  }
}
