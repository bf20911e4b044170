import { MIN_WORKPLACE_BALLOTS, OTHER_WORKPLACE, workplaceKey } from '../../survey/api/stats.ts';

export { workplaceKey };

/** Ballots per workplace: each shown by its most common spelling; below the threshold folded into "Other". */
export function foldWorkplaces(counts: Array<{ value: string; ballots: number }>, unanswered = 0): Array<{ name: string; ballots: number }> {
  const groups = new Map<string, { ballots: number; spellings: Map<string, number> }>();
  for (const { value, ballots } of counts) {
    const key = workplaceKey(value);
    if (!key) {
      unanswered += ballots;
      continue;
    }
    const group = groups.get(key) ?? { ballots: 0, spellings: new Map<string, number>() };
    const spelling = value.replace(/\s+/g, ' ').trim();
    group.ballots += ballots;
    group.spellings.set(spelling, (group.spellings.get(spelling) ?? 0) + ballots);
    groups.set(key, group);
  }
  let other = unanswered;
  const named: Array<{ name: string; ballots: number }> = [];
  for (const [key, group] of groups) {
    if (group.ballots < MIN_WORKPLACE_BALLOTS || key === workplaceKey(OTHER_WORKPLACE)) {
      other += group.ballots;
      continue;
    }
    const [name] = [...group.spellings].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1))[0];
    named.push({ name, ballots: group.ballots });
  }
  named.sort((a, b) => b.ballots - a.ballots || a.name.localeCompare(b.name));
  return other > 0 ? [...named, { name: OTHER_WORKPLACE, ballots: other }] : named;
}
