import { unionFind, type NomineeName, type SignalCluster, type SignalThresholds } from './signal-model.ts';
import { clusterOf, groupBy, membersOf, type SignalTable } from './signal-table.ts';

/** The most a reciprocal pair's chance (the shares of ballots naming each, multiplied) may be for it to be flagged. */
const RECIPROCAL_CHANCE = 0.0001;

/** Calls `each` with every distinct nominee a ballot names (by number), in the order first named. */
function namedBy(table: SignalTable, ballot: number, each: (nominee: number) => void) {
  const { votes, voteStart, entryNominee } = table;
  for (let v = voteStart[ballot]; v < voteStart[ballot + 1]; v++) {
    const nominee = entryNominee[votes[v]];
    let repeat = false;
    for (let w = voteStart[ballot]; w < v && !repeat; w++) repeat = entryNominee[votes[w]] === nominee;
    if (!repeat) each(nominee);
  }
}

/**
 * Voters on the nominee list who nominate each other: A (nominee a) names b and B (nominee b)
 * names a, when that is unlikely by popularity alone: the shares of ballots naming a and b,
 * multiplied, at most `RECIPROCAL_CHANCE`. Two of the best-known names nominating each other
 * is consensus; two little-known ones doing so is worth a look, though colleagues do it honestly too. Pairs that share a voter join into one ring; each ring is a cluster of its ballots.
 */
export function reciprocalNominations(table: SignalTable, name: NomineeName): SignalCluster[] {
  const n = table.size;
  const share = new Float64Array(table.nominees.size);
  for (let i = 0; i < n; i++) namedBy(table, i, (nominee) => (share[nominee] += 1 / n));
  const byVoter = groupBy(n, table.nominees.size, (i, emit) => {
    if (table.voter[i] >= 0) emit(table.voter[i]);
  });
  const text = (nominee: number) => table.nominees.text(nominee);
  // What each voter's ballots name, in the order named.
  const named = Array.from({ length: byVoter.count }, (_, g) => {
    const all = new Set<number>();
    for (const i of membersOf(byVoter, g)) namedBy(table, i, (nominee) => all.add(nominee));
    return all;
  });
  const limit = RECIPROCAL_CHANCE;
  const rings = unionFind(byVoter.count);
  const pairs: Array<[string, string, number]> = [];
  for (let g = 0; g < byVoter.count; g++) {
    const voter = byVoter.key[g];
    for (const other of named[g]) {
      const their = byVoter.of[other];
      if (text(other) <= text(voter) || their < 0 || !named[their].has(voter)) continue;
      const chance = share[voter] * share[other];
      if (chance > limit) continue;
      pairs.push([text(voter), text(other), chance]);
      rings.union(g, their);
    }
  }
  return rings.groups(2).map((group) => {
    const members = new Set(group.map((g) => text(byVoter.key[g])));
    const ringPairs = pairs.filter(([a]) => members.has(a));
    const what = ringPairs.map(([a, b]) => `${name(a)} and ${name(b)}`).join('; ');
    return clusterOf(table, {
      kind: 'reciprocal',
      ballots: group.flatMap((g) => Array.from(membersOf(byVoter, g))),
      evidence: `${members.size} voters on the nominee list nominate each other: ${what}`,
      // Each pair weighs by how unlikely it is: 1 at the limit, one more for each tenfold below it, at most 10.
      score: ringPairs.reduce((sum, [, , chance]) => sum + Math.min(10, Math.log10(limit / Math.max(chance, 1e-15)) + 1), 0),
    });
  });
}

/** Every way to choose `size` items of a sorted list, in order. */
function* combinations(items: readonly number[], size: number, start = 0, chosen: number[] = []): Generator<number[]> {
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

/** Sets a sketch counts at most: below this many, every set is kept exactly from the start. */
const EXACT_SETS = 1 << 18;

/** Counters of the sketch (two rows of 2^22, 16 MB): a set's count is at most the smaller of its two. */
const SKETCH_BITS = 22;

/**
 * Counts of sets of numbers, never under the true count and mostly at it (a count-min sketch
 * of two rows of 16-bit counters): which sets may reach a threshold, in fixed memory however many sets there are.
 */
function setSketch() {
  const rows = [new Uint16Array(1 << SKETCH_BITS), new Uint16Array(1 << SKETCH_BITS)];
  const slot = (set: readonly number[], seed: number) => {
    let h = 0x811c9dc5 ^ seed;
    for (const x of set) h = Math.imul(h ^ x, 0x01000193) ^ (h >>> 13);
    return Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> (32 - SKETCH_BITS);
  };
  return {
    add(set: readonly number[]) {
      rows.forEach((row, r) => {
        const s = slot(set, r);
        if (row[s] < 0xffff) row[s]++;
      });
    },
    /** True when the set may have been added `min` times or more (a full counter may hold any count). */
    mayReach(set: readonly number[], min: number): boolean {
      return rows.every((row, r) => {
        const count = row[slot(set, r)];
        return count >= min || count === 0xffff;
      });
    },
  };
}

/**
 * Blocs: at least `blocMin` ballots naming the same `blocSize` nominees in one sub-category,
 * `blocLift` times more often than those nominees' separate popularity predicts (were ballots
 * to pick them independently). A consensus around the best-known names is expected and not a
 * bloc; a set of little-known names that keeps appearing together is. Sets found on exactly
 * the same ballots are one bloc, their nominees together. On a large survey the sets are
 * counted first in a sketch, and only those that may reach `blocMin` are listed with their ballots
 * (from `exactSets` sets, smaller only in its tests).
 */
export function blocs(table: SignalTable, t: SignalThresholds, name: NomineeName, exactSets = EXACT_SETS): SignalCluster[] {
  const { votes, voteStart, entrySub, entryNominee, nominees, subs, entries } = table;
  const voters = new Int32Array(subs.size);
  const popularity = new Int32Array(entries.size);
  // Nominees by the order of their ids' text, so that a set's nominees sort as their ids do.
  const byText = Array.from({ length: nominees.size }, (_, k) => k).sort((a, b) => {
    const [x, y] = [nominees.text(a), nominees.text(b)];
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const rank = new Int32Array(nominees.size);
  byText.forEach((nominee, r) => (rank[nominee] = r));
  /** Calls `each` with every set of `blocSize` nominees a ballot names in one sub-category: the sub-category, then the ranks. */
  const setsOf = (i: number, each: (set: number[]) => void, count = false) => {
    const subsNamed: number[] = [];
    const named: number[][] = [];
    for (let v = voteStart[i]; v < voteStart[i + 1]; v++) {
      const entry = votes[v];
      let k = subsNamed.indexOf(entrySub[entry]);
      if (k < 0) {
        k = subsNamed.push(entrySub[entry]) - 1;
        named.push([]);
      }
      if (!named[k].includes(entry)) named[k].push(entry);
    }
    subsNamed.forEach((sub, k) => {
      if (count) {
        voters[sub]++;
        for (const entry of named[k]) popularity[entry]++;
      }
      if (named[k].length < t.blocSize) return;
      const ranks = named[k].map((entry) => rank[entryNominee[entry]]).sort((a, b) => a - b);
      for (const combo of combinations(ranks, t.blocSize)) each([sub, ...combo]);
    });
  };
  let total = 0;
  for (let i = 0; i < table.size; i++) setsOf(i, () => total++, true);
  const sketch = total > exactSets ? setSketch() : undefined;
  if (sketch) for (let i = 0; i < table.size; i++) setsOf(i, (set) => sketch.add(set));
  const sets = new Map<string, number[]>();
  for (let i = 0; i < table.size; i++) {
    setsOf(i, (set) => {
      if (sketch && !sketch.mayReach(set, t.blocMin)) return;
      const key = set.join(',');
      const list = sets.get(key);
      if (list) list.push(i);
      else sets.set(key, [i]);
    });
  }
  const found = new Map<string, { sub: number; nominees: Set<string>; ballots: number[]; lift: number }>();
  for (const [key, ballots] of sets) {
    if (ballots.length < t.blocMin) continue;
    const [sub, ...ranks] = key.split(',').map(Number);
    const n = voters[sub];
    const ids = ranks.map((r) => nominees.text(byText[r]));
    const subText = subs.text(sub);
    const expected = ids.reduce((product, id) => product * (popularity[entries.find(`${subText}\u0000${id}`)] / n), n);
    const lift = ballots.length / expected;
    if (lift < t.blocLift) continue;
    const same = `${sub} ${ballots.join(',')}`;
    const bloc = found.get(same);
    if (bloc) {
      for (const id of ids) bloc.nominees.add(id);
      bloc.lift = Math.min(bloc.lift, lift);
    } else found.set(same, { sub, nominees: new Set(ids), ballots, lift });
  }
  return [...found.values()].map(({ sub, nominees: named, ballots, lift }) =>
    clusterOf(table, {
      kind: 'bloc',
      ballots,
      evidence: `${ballots.length} ballots name the same ${named.size} nominees in ${subs.text(sub).split('\u0000')[1]}: ${[...named].sort().map(name).join(', ')} (${Math.round(lift)} times what their popularity predicts)`,
      score: Math.min(ballots.length / t.blocMin, lift / t.blocLift),
    }),
  );
}
