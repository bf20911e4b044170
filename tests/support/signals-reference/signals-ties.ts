import { unionFind, type NomineeName, type SignalBallot, type SignalCluster, type SignalThresholds } from '../../../src/results/signals/signal-model.ts';

/** The most a reciprocal pair's chance (the shares of ballots naming each, multiplied) may be for it to be flagged. */
const RECIPROCAL_CHANCE = 0.0001;

/**
 * Voters on the nominee list who nominate each other: A (nominee a) names b and B (nominee b)
 * names a, when that is unlikely by popularity alone: the shares of ballots naming a and b,
 * multiplied, at most `RECIPROCAL_CHANCE`. Two of the best-known names nominating each other
 * is consensus; two little-known ones doing so is worth a look, though colleagues do it honestly too. Pairs that share a voter join into one ring; each ring is a cluster of its ballots.
 */
export function reciprocalNominations(ballots: readonly SignalBallot[], name: NomineeName): SignalCluster[] {
  const share = new Map<string, number>();
  for (const ballot of ballots) for (const id of new Set(ballot.votes.map((v) => v.nomineeId))) share.set(id, (share.get(id) ?? 0) + 1 / ballots.length);
  const byVoter = new Map<string, SignalBallot[]>();
  for (const ballot of ballots) {
    if (!ballot.nomineeId) continue;
    const list = byVoter.get(ballot.nomineeId);
    if (list) list.push(ballot);
    else byVoter.set(ballot.nomineeId, [ballot]);
  }
  const voters = [...byVoter.keys()];
  const index = new Map(voters.map((id, i) => [id, i]));
  const names = (voter: string) => new Set(byVoter.get(voter)!.flatMap((b) => b.votes.map((v) => v.nomineeId)));
  const named = new Map(voters.map((voter) => [voter, names(voter)]));
  const limit = RECIPROCAL_CHANCE;
  const rings = unionFind(voters.length);
  const pairs: Array<[string, string, number]> = [];
  for (const voter of voters) {
    for (const other of named.get(voter)!) {
      if (other <= voter || !named.get(other)?.has(voter)) continue;
      const chance = (share.get(voter) ?? 0) * (share.get(other) ?? 0);
      if (chance > limit) continue;
      pairs.push([voter, other, chance]);
      rings.union(index.get(voter)!, index.get(other)!);
    }
  }
  return rings
    .groups()
    .filter((group) => group.length > 1)
    .map((group) => {
      const members = new Set(group.map((i) => voters[i]));
      const ringPairs = pairs.filter(([a]) => members.has(a));
      const what = ringPairs.map(([a, b]) => `${name(a)} and ${name(b)}`).join('; ');
      return {
        kind: 'reciprocal',
        ballotIds: group.flatMap((i) => byVoter.get(voters[i])!.map((b) => b.id)),
        evidence: `${members.size} voters on the nominee list nominate each other: ${what}`,
        // Each pair weighs by how unlikely it is: 1 at the limit, one more for each tenfold below it, at most 10.
        score: ringPairs.reduce((sum, [, , chance]) => sum + Math.min(10, Math.log10(limit / Math.max(chance, 1e-15)) + 1), 0),
      };
    });
}

/** Every way to choose `size` items of a sorted list, in order. */
function* combinations(items: readonly string[], size: number, start = 0, chosen: string[] = []): Generator<string[]> {
  if (chosen.length === size) {
    yield [...chosen];
    return;
  }
  for (let i = start; i <= items.length - (size - chosen.length); i++) {
    chosen.push(items[i]);
    yield* combinations(items, size, i + 1, chosen);
    chosen.pop();
  }
}

/**
 * Blocs: at least `blocMin` ballots naming the same `blocSize` nominees in one sub-category,
 * `blocLift` times more often than those nominees' separate popularity predicts (were ballots
 * to pick them independently). A consensus around the best-known names is expected and not a
 * bloc; a set of little-known names that keeps appearing together is. Sets found on exactly
 * the same ballots are one bloc, their nominees together.
 */
export function blocs(ballots: readonly SignalBallot[], t: SignalThresholds, name: NomineeName): SignalCluster[] {
  const voters = new Map<string, number>();
  const popularity = new Map<string, number>();
  const sets = new Map<string, string[]>();
  for (const ballot of ballots) {
    const bySub = new Map<string, Set<string>>();
    for (const vote of ballot.votes) {
      const sub = `${vote.group}\u0000${vote.subcategory}`;
      if (!bySub.has(sub)) bySub.set(sub, new Set());
      bySub.get(sub)!.add(vote.nomineeId);
    }
    for (const [sub, ids] of bySub) {
      voters.set(sub, (voters.get(sub) ?? 0) + 1);
      for (const id of ids) popularity.set(`${sub}\u0000${id}`, (popularity.get(`${sub}\u0000${id}`) ?? 0) + 1);
      if (ids.size < t.blocSize) continue;
      for (const combo of combinations([...ids].sort(), t.blocSize)) {
        const key = `${sub}\u0000${combo.join('\u0001')}`;
        const list = sets.get(key);
        if (list) list.push(ballot.id);
        else sets.set(key, [ballot.id]);
      }
    }
  }
  const found = new Map<string, { sub: string; nominees: Set<string>; ids: string[]; lift: number }>();
  for (const [key, ids] of sets) {
    if (ids.length < t.blocMin) continue;
    const [group, subcategory, combo] = key.split('\u0000');
    const sub = `${group}\u0000${subcategory}`;
    const n = voters.get(sub)!;
    const nominees = combo.split('\u0001');
    const expected = nominees.reduce((product, id) => product * (popularity.get(`${sub}\u0000${id}`)! / n), n);
    const lift = ids.length / expected;
    if (lift < t.blocLift) continue;
    const same = `${sub}\u0000${ids.join(',')}`;
    const bloc = found.get(same);
    if (bloc) {
      for (const id of nominees) bloc.nominees.add(id);
      bloc.lift = Math.min(bloc.lift, lift);
    } else found.set(same, { sub, nominees: new Set(nominees), ids, lift });
  }
  return [...found.values()].map(({ sub, nominees, ids, lift }) => ({
    kind: 'bloc',
    ballotIds: ids,
    evidence: `${ids.length} ballots name the same ${nominees.size} nominees in ${sub.split('\u0000')[1]}: ${[...nominees].sort().map(name).join(', ')} (${Math.round(lift)} times what their popularity predicts)`,
    score: Math.min(ids.length / t.blocMin, lift / t.blocLift),
  }));
}
