import { licenseProblem } from './license-check.ts';
import { BURST_CHANCE, chanceOfPeak, unionFind, type SignalCluster, type SignalThresholds } from './signal-model.ts';
import { clusterOf, groupBy, membersOf, release, type SignalTable } from './signal-table.ts';

/** A 32-bit hash of a string (FNV-1a with a seed). */
function hash32(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
}

/**
 * Each ballot's entries (its nominations and write-ins), each once, in the order of their text:
 * as ranks, an entry's place among all entries sorted by text.
 */
function entrySets(table: SignalTable) {
  const { entries, votes, voteStart, writeIns, writeInStart } = table;
  const byText = Array.from({ length: entries.size }, (_, e) => e);
  const texts = byText.map((e) => entries.text(e));
  byText.sort((a, b) => (texts[a] < texts[b] ? -1 : texts[a] > texts[b] ? 1 : 0));
  const rank = new Int32Array(entries.size);
  byText.forEach((e, r) => (rank[e] = r));
  // Every entry's two hashes, by rank: a set less one entry costs a subtraction, not a new pass over the set.
  const h1 = new Int32Array(entries.size);
  const h2 = new Int32Array(entries.size);
  byText.forEach((e, r) => {
    h1[r] = hash32(texts[e], 1);
    h2[r] = hash32(texts[e], 2);
  });
  let most = 0;
  for (let i = 0; i < table.size; i++) most = Math.max(most, voteStart[i + 1] - voteStart[i] + writeInStart[i + 1] - writeInStart[i]);
  const scratch = new Int32Array(most);
  return {
    h1,
    h2,
    /** Ballot `i`'s entries as ranks, ascending, each once, in `scratch` (overwritten by the next call): how many. */
    of(i: number, out: Int32Array = scratch): number {
      let n = 0;
      for (let v = voteStart[i]; v < voteStart[i + 1]; v++) n = insert(out, n, rank[votes[v]]);
      for (let w = writeInStart[i]; w < writeInStart[i + 1]; w++) n = insert(out, n, rank[writeIns[w]]);
      return n;
    },
    scratch,
  };
}

/** Puts `value` into the sorted first `n` of `list` unless it is there: the new count. */
function insert(list: Int32Array, n: number, value: number): number {
  let k = n;
  while (k > 0 && list[k - 1] > value) k--;
  if (k > 0 && list[k - 1] === value) return n;
  list.copyWithin(k + 1, k, n);
  list[k] = value;
  return n + 1;
}

/** How many set digests one pass holds: a table of twice as many places (24 MB), whatever the survey's size. */
const DIGESTS_PER_PASS = 1 << 20;

/**
 * Set digests to the first ballot that had each: an open-addressing table in typed arrays. A
 * digest is its two halves, 32 and 21 bits, each a small integer: tens of millions of digests
 * come and go without one number put on the heap.
 */
function digestTable(keysHeld: number) {
  // Places for twice the keys, a power of two.
  const capacity = 2 ** Math.ceil(Math.log2(Math.max(16, 2 * keysHeld)));
  let highs = new Int32Array(capacity);
  let lows = new Int32Array(capacity);
  let firsts = new Int32Array(capacity);
  let used = 0;
  // The halves mixed, and the top bits of their product taken: the low bits of a product are poorly mixed.
  const slotOf = (high: number, low: number, places: number) => Math.imul(high ^ Math.imul(low, 0x85ebca6b), 0x9e3779b1) >>> (Math.clz32(places) + 1);
  return {
    /** Its memory, to free once the passes are done. */
    memory: () => [highs, lows, firsts],
    /** Forgets every digest, keeping the memory for the next pass. */
    clear() {
      firsts.fill(0);
      used = 0;
    },
    /** The first ballot that had the digest, or -1 after noting that `ballot` has it first. */
    firstOr(high: number, low: number, ballot: number): number {
      const mask = highs.length - 1;
      let slot = slotOf(high, low, highs.length);
      while (firsts[slot] !== 0) {
        if (highs[slot] === high && lows[slot] === low) return firsts[slot] - 1;
        slot = (slot + 1) & mask;
      }
      highs[slot] = high;
      lows[slot] = low;
      firsts[slot] = ballot + 1;
      if (++used * 10 > highs.length * 7) {
        const [oldHighs, oldLows, oldFirsts] = [highs, lows, firsts];
        highs = new Int32Array(oldHighs.length * 2);
        lows = new Int32Array(oldHighs.length * 2);
        firsts = new Int32Array(oldHighs.length * 2);
        for (let s = 0; s < oldHighs.length; s++) {
          if (oldFirsts[s] === 0) continue;
          let at = slotOf(oldHighs[s], oldLows[s], highs.length);
          while (firsts[at] !== 0) at = (at + 1) & (highs.length - 1);
          highs[at] = oldHighs[s];
          lows[at] = oldLows[s];
          firsts[at] = oldFirsts[s];
        }
      }
      return -1;
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
 * The index is built in passes, each holding the keys of one share of digests (`digestsPerPass`,
 * smaller only in its tests), so that its memory stays the same however many ballots there are.
 */
export function nearIdentical(table: SignalTable, t: SignalThresholds, digestsPerPass = DIGESTS_PER_PASS): SignalCluster[] {
  const n = table.size;
  const sets = entrySets(table);
  const { h1, h2, scratch } = sets;
  const entriesOf = (i: number, into: Int32Array) => sets.of(i, into);
  const counts = new Int32Array(n);
  const share = new Float64Array(table.entries.size);
  let digests = 0;
  for (let i = 0; i < n; i++) {
    const count = (counts[i] = sets.of(i));
    for (let k = 0; k < count; k++) share[scratch[k]] += 1 / n;
    if (count >= t.similarMin) digests += count + 1;
  }
  const joined = unionFind(n);
  const identical = new Uint8Array(n);
  const passes = Math.max(1, Math.ceil(digests / digestsPerPass));
  // Sized for a pass's share of the digests; it grows should a share come out larger.
  const first = digestTable(Math.ceil(digests / passes));
  for (let pass = 0; pass < passes; pass++) {
    first.clear();
    for (let i = 0; i < n; i++) {
      if (counts[i] < t.similarMin) continue;
      const count = sets.of(i);
      // The sums of the entries' two hashes, modulo 2^32: the digest is a's 32 bits and b's top 21.
      let a = 0;
      let b = 0;
      for (let k = 0; k < count; k++) {
        a = (a + h1[scratch[k]]) | 0;
        b = (b + h2[scratch[k]]) | 0;
      }
      const wholeLow = b >>> 11;
      // One namespace for whole sets and sets less one entry: a ballot with one entry more than another meets it there.
      for (let k = -1; k < count; k++) {
        const high = k < 0 ? a : (a - h1[scratch[k]]) | 0;
        const low = k < 0 ? wholeLow : (b - h2[scratch[k]]) >>> 11;
        if (((high ^ low) >>> 0) % passes !== pass) continue;
        const seen = first.firstOr(high, low, i);
        if (seen < 0) continue;
        joined.union(seen, i);
        // Under its whole set, an earlier ballot of as many entries is one exactly alike.
        if (high === a && low === wholeLow && counts[seen] === count) identical[seen] = identical[i] = 1;
      }
    }
  }
  const groups = joined.groups(t.similarBallots);
  release(counts, ...first.memory());
  // Each group is judged with a few scratch lists, no list a ballot: a million ballots may sit in such groups.
  const mine = new Int32Array(scratch.length);
  const theirs = new Int32Array(scratch.length);
  const template = new Int32Array(scratch.length);
  const inTemplate = new Uint8Array(table.entries.size);
  // A set's sum of first hashes finds its like among the group's sets; each is then compared entry by entry.
  const digestOf = (entries: Int32Array, count: number) => {
    let a = 0;
    for (let k = 0; k < count; k++) a = (a + h1[entries[k]]) | 0;
    return a;
  };

  const clusters = groups.flatMap((group): SignalCluster[] => {
    // The group's distinct entry sets, in the order first met: found by digest, confirmed entry by entry.
    const byDigest = new Map<number, number[]>();
    const distinct: Array<{ first: number; count: number; size: number }> = [];
    for (const i of group) {
      const size = entriesOf(i, mine);
      const digest = digestOf(mine, size);
      const candidates = byDigest.get(digest) ?? [];
      const known = candidates.find(
        (d) => distinct[d].size === size && entriesOf(distinct[d].first, theirs) === size && mine.subarray(0, size).every((e, k) => theirs[k] === e),
      );
      if (known !== undefined) distinct[known].count++;
      else {
        byDigest.set(digest, [...candidates, distinct.length]);
        distinct.push({ first: i, count: 1, size });
      }
    }
    // The most common set (the longest of those, the first met of those): the template.
    let best = distinct[0];
    for (const set of distinct) if (set.count > best.count || (set.count === best.count && set.size > best.size)) best = set;
    const size = entriesOf(best.first, template);
    for (let k = 0; k < size; k++) inTemplate[template[k]] = 1;
    // Chains of "one apart" drift; the cluster is the ballots within one entry of the template.
    const members = group.filter((i) => {
      const count = entriesOf(i, mine);
      let shared = 0;
      for (let k = 0; k < count; k++) shared += inTemplate[mine[k]];
      return shared >= size - 1 && count - shared <= 1 && count + size - 2 * shared <= 2;
    });
    for (let k = 0; k < size; k++) inTemplate[template[k]] = 0;
    if (members.length < t.similarBallots) return [];
    const p = Array.from(template.subarray(0, size), (entry) => share[entry]);
    const all = p.reduce((product, x) => product * x, 1);
    // The chance of a ballot holding the whole template, or all of it but one entry.
    const chance = all + p.reduce((sum, x) => sum + all / x, 0);
    const lift = members.length / (n * chance);
    if (lift < t.similarLift || chanceOfPeak(members.length + 1, n * chance, groups.length) > BURST_CHANCE) return [];
    const same = members.filter((i) => identical[i]).length;
    return [
      clusterOf(table, {
        kind: 'near_identical',
        ballots: members,
        evidence: `${members.length} ballots with the same ${size} entries give or take one${same ? ` (${same} exactly alike)` : ''}, ${Math.round(lift)} times what the names' popularity predicts`,
        score: Math.min(members.length / t.similarBallots, lift / t.similarLift),
      }),
    ];
  });
  release(identical);
  return clusters;
}

/**
 * License numbers that fail their check (one cluster of every such ballot), and each license
 * number given with two or more different email addresses.
 */
export function licenseSignals(table: SignalTable): SignalCluster[] {
  const clusters: SignalCluster[] = [];
  // Each license is checked once, however many ballots give it: its problem's place in `problems` plus one, 0 for none.
  const problemOf = new Int32Array(table.licenses.size).fill(-1);
  const problems = new Map<string, { place: number; ballots: number }>();
  const texts: string[] = [];
  let failing = 0;
  for (let i = 0; i < table.size; i++) {
    const license = table.license[i];
    if (license < 0) continue;
    if (problemOf[license] < 0) {
      const problem = licenseProblem(table.licenses.text(license));
      if (problem && !problems.has(problem)) problems.set(problem, { place: texts.push(problem), ballots: 0 });
      problemOf[license] = problem ? problems.get(problem)!.place : 0;
    }
    if (problemOf[license] > 0) failing++;
  }
  if (failing) {
    // In the order the ballots came: each problem's count, in the order first met.
    const ids: number[] = [];
    const met: string[] = [];
    for (let i = 0; i < table.size; i++) {
      const place = table.license[i] < 0 ? 0 : problemOf[table.license[i]];
      if (!place) continue;
      const problem = texts[place - 1];
      if (!problems.get(problem)!.ballots++) met.push(problem);
      ids.push(i);
    }
    clusters.push(
      clusterOf(table, {
        kind: 'bad_license',
        ballots: ids,
        evidence: `${failing} ballot${failing === 1 ? '' : 's'} with a license number that fails its check: ${met.map((problem) => `${problems.get(problem)!.ballots} ${problem}`).join(', ')}`,
        score: failing / 3,
      }),
    );
  }
  const byLicense = groupBy(table.size, table.licenses.size, (i, emit) => {
    if (table.license[i] >= 0) emit(table.license[i]);
  });
  for (let g = 0; g < byLicense.count; g++) {
    const ballots = membersOf(byLicense, g);
    if (ballots.length < 2) continue;
    const emails = new Set(Array.from(ballots, (i) => table.email(i)).filter(Boolean));
    if (emails.size < 2) continue;
    clusters.push(
      clusterOf(table, {
        kind: 'license_repeat',
        ballots,
        evidence: `one license number on ${ballots.length} ballots with ${emails.size} different email addresses`,
        score: emails.size / 2,
      }),
    );
  }
  release(problemOf, byLicense);
  return clusters;
}
