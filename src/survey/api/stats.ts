import type { ParticipationFigures, WorkplaceFigures } from './api-replies.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The most days the ballots-per-day chart shows: the last year of the survey. */
const MAX_DAYS = 366;

/** Ballots per day from the first day with ballots to the last, quiet days in between as zero; at most the last MAX_DAYS. */
export function daySeries(perDay: ParticipationFigures['ballots_per_day']): ParticipationFigures['ballots_per_day'] {
  if (perDay.length === 0) return [];
  const first = Date.parse(`${perDay[0].day}T00:00:00Z`);
  const last = Date.parse(`${perDay[perDay.length - 1].day}T00:00:00Z`);
  if (!Number.isFinite(first) || !Number.isFinite(last) || last < first) return perDay;
  const counts = new Map(perDay.map(({ day, ballots }) => [day, ballots]));
  const days: ParticipationFigures['ballots_per_day'] = [];
  for (let t = Math.max(first, last - (MAX_DAYS - 1) * DAY_MS); t <= last; t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    days.push({ day, ballots: counts.get(day) ?? 0 });
  }
  return days;
}

/**
 * Nominations per sub-category in the survey's own order, those without any as zero; a
 * sub-category the API counts that the page does not know (the survey changed since the
 * build) is kept at the end.
 */
export function categorySeries(
  groups: Array<{ name: string; subcategories: string[] }>,
  counts: ParticipationFigures['nominations_per_category'],
): ParticipationFigures['nominations_per_category'] {
  const key = (group: string, subcategory: string) => `${group}\u0000${subcategory}`;
  const byKey = new Map(counts.map((row) => [key(row.group, row.subcategory), row.nominations]));
  const rows = groups.flatMap(({ name, subcategories }) =>
    subcategories.map((subcategory) => ({ group: name, subcategory, nominations: byKey.get(key(name, subcategory)) ?? 0 })),
  );
  const known = new Set(rows.map((row) => key(row.group, row.subcategory)));
  return [...rows, ...counts.filter((row) => !known.has(key(row.group, row.subcategory)))];
}

/** All nominations of a survey, summed over its sub-categories. */
export function totalNominations(figures: Pick<ParticipationFigures, 'nominations_per_category'>): number {
  return figures.nominations_per_category.reduce((sum, row) => sum + row.nominations, 0);
}

/** A workplace with its place in the ranking; "Other" has none. */
export interface RankedWorkplace {
  rank?: number;
  name: string;
  ballots: number;
}

/** Places the workplaces, which come most ballots first: equal counts share a place (1, 2, 2, 4). */
export function rankWorkplaces(workplaces: WorkplaceFigures['workplaces']): RankedWorkplace[] {
  let rank = 0;
  let previous: number | undefined;
  return workplaces.map((workplace, index) => {
    if (workplace.name === OTHER_WORKPLACE) return { ...workplace };
    if (workplace.ballots !== previous) {
      rank = index + 1;
      previous = workplace.ballots;
    }
    return { rank, ...workplace };
  });
}

/** The workplaces whose name contains the query, case and spacing aside, as the stats group names. */
export function filterWorkplaces<T extends { name: string }>(workplaces: T[], query: string): T[] {
  const wanted = workplaceKey(query);
  return wanted ? workplaces.filter((workplace) => workplaceKey(workplace.name).includes(wanted)) : workplaces;
}

/** The fewest ballots a workplace must have to be shown by name; smaller ones fold into "Other". */
export const MIN_WORKPLACE_BALLOTS = 3;

/** The name workplaces below the threshold, and ballots without a workplace, are counted under. */
export const OTHER_WORKPLACE = 'Other';

/** A workplace's name as the stats group it, and as the workplace page's filter matches it: spacing collapsed, trimmed, case folded. */
export function workplaceKey(name: string): string {
  return name.normalize('NFKC').replace(/\s+/g, ' ').trim().toLocaleLowerCase('en');
}
