/** The fewest ballots a workplace must have to be shown by name; smaller ones fold into "Other". */
export const MIN_WORKPLACE_BALLOTS = 3;

/** The name workplaces below the threshold, and ballots without a workplace, are counted under. */
export const OTHER_WORKPLACE = 'Other';

/** A workplace's name as the stats group it, and as the workplace page's filter matches it: spacing collapsed, trimmed, case folded. */
export function workplaceKey(name: string): string {
  return name.normalize('NFKC').replace(/\s+/g, ' ').trim().toLocaleLowerCase('en');
}
