import { licenseProblem } from '../../../src/results/signals/license-check.ts';
import {
  BURST_CHANCE,
  chanceOfPeak,
  unionFind,
  type SignalBallot,
  type SignalCluster,
  type SignalThresholds,
} from '../../../src/results/signals/signal-model.ts';

/** A 32-bit hash of a string (FNV-1a with a seed). */
function hash32(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
}

/**
 * Order-free digests of entry sets as 53-bit numbers: the sums of two 32-bit hashes of the
 * entries, so a set less one entry costs a subtraction, not a new pass over the set.
 */
function setDigests(): { of(entries: readonly string[]): { whole: number; without(entry: string): number } } {
  const hashes = new Map<string, [number, number]>();
  const hashOf = (entry: string) => {
    let h = hashes.get(entry);
    if (!h) hashes.set(entry, (h = [hash32(entry, 1), hash32(entry, 2)]));
    return h;
  };
  const key = (a: number, b: number) => (a >>> 0) * 2097152 + ((b >>> 0) >>> 11);
  return {
    of(entries) {
      let a = 0;
      let b = 0;
      for (const entry of entries) {
        const [h1, h2] = hashOf(entry);
        a = (a + h1) >>> 0;
        b = (b + h2) >>> 0;
      }
      return {
        whole: key(a, b),
        without(entry) {
          const [h1, h2] = hashOf(entry);
          return key(a - h1, b - h2);
        },
      };
    },
  };
}

/**
 * Ballots whose entries (nominations and write-ins) differ by at most one added, dropped or
 * changed entry, among ballots with at least `similarMin` entries, `similarBallots` or more of
 * them, and `similarLift` times as many as would come that close to their most common entry set
 * (the template) if ballots picked its entries independently, each as often as all ballots do,
 * and that many unlikely (a Poisson tail times the templates compared, at most
 * `BURST_CHANCE`): on a short nominee list every ballot looks alike, and that is no template. Each ballot is
 * indexed by its whole set and by the set less each entry; two ballots that share a key are that close.
 */
export function nearIdentical(ballots: readonly SignalBallot[], t: SignalThresholds): SignalCluster[] {
  const entriesOf = ballots.map((b) => [...new Set([...b.votes.map((v) => `${v.group}\u0000${v.subcategory}\u0000${v.nomineeId}`), ...b.writeIns])].sort());
  const first = new Map<number, number>();
  const digests = setDigests();
  const joined = unionFind(ballots.length);
  const identical = new Set<number>();
  entriesOf.forEach((entries, i) => {
    if (entries.length < t.similarMin) return;
    const digest = digests.of(entries);
    const whole = digest.whole;
    // One namespace for whole sets and sets less one entry: a ballot with one entry more than another meets it there.
    const keys = [whole, ...entries.map((entry) => digest.without(entry))];
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
  const groups = joined.groups().filter((group) => group.length >= t.similarBallots);
  return groups.flatMap((group): SignalCluster[] => {
    const sets = new Map<string, { entries: string[]; count: number }>();
    for (const i of group) {
      const key = entriesOf[i].join('\u0001');
      const known = sets.get(key);
      if (known) known.count++;
      else sets.set(key, { entries: entriesOf[i], count: 1 });
    }
    const template = [...sets.values()].sort((a, b) => b.count - a.count || b.entries.length - a.entries.length)[0];
    // Chains of "one apart" drift; the cluster is the ballots within one entry of the template.
    const inTemplate = new Set(template.entries);
    const members = group.filter((i) => {
      const shared = entriesOf[i].filter((entry) => inTemplate.has(entry)).length;
      return shared >= template.entries.length - 1 && entriesOf[i].length - shared <= 1 && entriesOf[i].length + template.entries.length - 2 * shared <= 2;
    });
    if (members.length < t.similarBallots) return [];
    const p = template.entries.map((entry) => share.get(entry)!);
    const all = p.reduce((product, x) => product * x, 1);
    // The chance of a ballot holding the whole template, or all of it but one entry.
    const chance = all + p.reduce((sum, x) => sum + all / x, 0);
    const lift = members.length / (ballots.length * chance);
    if (lift < t.similarLift || chanceOfPeak(members.length + 1, ballots.length * chance, groups.length) > BURST_CHANCE) return [];
    const same = members.filter((i) => identical.has(i)).length;
    return [
      {
        kind: 'near_identical',
        ballotIds: members.map((i) => ballots[i].id),
        evidence: `${members.length} ballots with the same ${template.entries.length} entries give or take one${same ? ` (${same} exactly alike)` : ''}, ${Math.round(lift)} times what the names' popularity predicts`,
        score: Math.min(members.length / t.similarBallots, lift / t.similarLift),
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
