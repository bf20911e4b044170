import { createHash } from 'node:crypto';
import { licenseProblem } from './license-check.ts';
import type { SignalBallot, SignalCluster, SignalThresholds } from './signals.ts';

/** Groups of items joined by shared links: a small union-find. */
export function unionFind(size: number): { union(a: number, b: number): void; groups(): number[][] } {
  const parent = Array.from({ length: size }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };
  return {
    union(a, b) {
      const [x, y] = [find(a), find(b)];
      if (x !== y) parent[Math.max(x, y)] = Math.min(x, y);
    },
    groups() {
      const groups = new Map<number, number[]>();
      for (let i = 0; i < size; i++) {
        const root = find(i);
        const group = groups.get(root);
        if (group) group.push(i);
        else groups.set(root, [i]);
      }
      return [...groups.values()];
    },
  };
}

/** A short digest of a set of entries, so the index below holds 16 bytes a key however long the ballot. */
const digest = (entries: readonly string[]) => createHash('sha1').update(entries.join('\u0001')).digest('base64').slice(0, 16);

/**
 * Ballots whose entries (nominations and write-ins) differ by at most one added, dropped or
 * changed entry, among ballots with at least `similarMin` entries, `similarBallots` or more of
 * them, and `similarLift` times as many as would come that close to their most common entry set
 * (the template) if ballots picked its entries independently, each as often as all ballots do:
 * on a short nominee list every ballot looks alike, and that is no template. Each ballot is
 * indexed by its whole set and by the set less each entry; two ballots that share a key are that close.
 */
export function nearIdentical(ballots: readonly SignalBallot[], t: SignalThresholds): SignalCluster[] {
  const entriesOf = ballots.map((b) => [...new Set([...b.votes.map((v) => `${v.group}\u0000${v.subcategory}\u0000${v.nomineeId}`), ...b.writeIns])].sort());
  const first = new Map<string, number>();
  const joined = unionFind(ballots.length);
  const identical = new Set<number>();
  entriesOf.forEach((entries, i) => {
    if (entries.length < t.similarMin) return;
    const whole = digest(entries);
    // One namespace for whole sets and sets less one entry: a ballot with one entry more than another meets it there.
    const keys = [whole, ...entries.map((_, skip) => digest(entries.filter((__, k) => k !== skip)))];
    for (const key of keys) {
      const seen = first.get(key);
      if (seen === undefined) first.set(key, i);
      else {
        joined.union(seen, i);
        // Under its whole set, an earlier ballot of as many entries is one exactly alike.
        if (key === whole && entriesOf[seen].length === entries.length) identical.add(seen).add(i);
      }
    }
  });
  const share = new Map<string, number>();
  for (const entries of entriesOf) for (const entry of entries) share.set(entry, (share.get(entry) ?? 0) + 1 / ballots.length);
  return joined.groups().flatMap((group): SignalCluster[] => {
    if (group.length < t.similarBallots) return [];
    const sets = new Map<string, { entries: string[]; count: number }>();
    for (const i of group) {
      const key = entriesOf[i].join('\u0001');
      const known = sets.get(key);
      if (known) known.count++;
      else sets.set(key, { entries: entriesOf[i], count: 1 });
    }
    const template = [...sets.values()].sort((a, b) => b.count - a.count || b.entries.length - a.entries.length)[0];
    const p = template.entries.map((entry) => share.get(entry)!);
    const all = p.reduce((product, x) => product * x, 1);
    // The chance of a ballot holding the whole template, or all of it but one entry.
    const chance = all + p.reduce((sum, x) => sum + all / x, 0);
    const lift = group.length / (ballots.length * chance);
    if (lift < t.similarLift) return [];
    const same = group.filter((i) => identical.has(i)).length;
    return [
      {
        kind: 'near_identical',
        ballotIds: group.map((i) => ballots[i].id),
        evidence: `${group.length} ballots with the same ${template.entries.length} entries give or take one${same ? ` (${same} exactly alike)` : ''}, ${Math.round(lift)} times what the names' popularity predicts`,
        score: Math.min(group.length / t.similarBallots, lift / t.similarLift),
      },
    ];
  });
}

/**
 * License numbers that fail their check (one cluster of every such ballot), and each license
 * number given with two or more different email addresses.
 */
export function licenseSignals(ballots: readonly SignalBallot[]): SignalCluster[] {
  const clusters: SignalCluster[] = [];
  const failing = ballots.flatMap((b) => {
    const problem = b.license ? licenseProblem(b.license) : undefined;
    return problem ? [{ id: b.id, problem }] : [];
  });
  if (failing.length) {
    const problems = new Map<string, number>();
    for (const { problem } of failing) problems.set(problem, (problems.get(problem) ?? 0) + 1);
    clusters.push({
      kind: 'bad_license',
      ballotIds: failing.map((f) => f.id),
      evidence: `${failing.length} ballot${failing.length === 1 ? '' : 's'} with a license number that fails its check: ${[...problems].map(([problem, n]) => `${n} ${problem}`).join(', ')}`,
      score: failing.length / 3,
    });
  }
  const byLicense = new Map<string, SignalBallot[]>();
  for (const ballot of ballots) {
    if (!ballot.license) continue;
    const list = byLicense.get(ballot.license);
    if (list) list.push(ballot);
    else byLicense.set(ballot.license, [ballot]);
  }
  for (const list of byLicense.values()) {
    const emails = new Set(list.map((b) => b.email).filter(Boolean));
    if (emails.size < 2) continue;
    clusters.push({
      kind: 'license_repeat',
      ballotIds: list.map((b) => b.id),
      evidence: `one license number on ${list.length} ballots with ${emails.size} different email addresses`,
      score: emails.size / 2,
    });
  }
  return clusters;
}
