import { BURST_CHANCE, chanceOfPeak, type NomineeName, type SignalCluster, type SignalThresholds } from './signal-model.ts';
import { clusterOf, groupBy, membersOf, release, type Groups, type SignalTable } from './signal-table.ts';

/** A run of one group's ballots in which every ballot lies in a window holding at least `min` of them. */
interface Burst {
  /** The group, in the Groups the bursts were found in. */
  group: number;
  /** Its ballots, in time order. */
  ballots: number[];
  from: number;
  to: number;
  /** The most ballots any one window of the run holds. */
  peak: number;
}

/** A group's ballots in time order (then by id): as stored, unless ballots were given out of order. */
function inTimeOrder(table: SignalTable, list: Int32Array): ArrayLike<number> {
  const { at } = table;
  const before = (a: number, b: number) => at[a] - at[b] || (table.id(a) < table.id(b) ? -1 : 1);
  for (let k = 1; k < list.length; k++) if (before(list[k - 1], list[k]) > 0) return Array.from(list).sort(before);
  return list;
}

/**
 * The bursts among ballots grouped by key: a sliding window of `windowMs` over each group's
 * ballots in time order; windows holding at least `min` ballots that overlap merge into one burst.
 * Exported only so its unit test can check it directly; the product reaches it through addressBursts and deviceBursts.
 * @internal
 */
export function bursts(table: SignalTable, groups: Groups, windowMs: number, min: number): Burst[] {
  const { at } = table;
  const found: Burst[] = [];
  for (let g = 0; g < groups.count; g++) {
    if (groups.start[g + 1] - groups.start[g] < min) continue;
    const sorted = inTimeOrder(table, membersOf(groups, g));
    let run: { start: number; end: number; peak: number } | undefined;
    const close = () => {
      if (!run) return;
      const ballots = Array.from({ length: run.end - run.start + 1 }, (_, k) => sorted[run!.start + k]);
      found.push({ group: g, ballots, from: at[ballots[0]], to: at[ballots[ballots.length - 1]], peak: run.peak });
      run = undefined;
    };
    let start = 0;
    for (let end = 0; end < sorted.length; end++) {
      while (at[sorted[end]] - at[sorted[start]] > windowMs) start++;
      const count = end - start + 1;
      if (count < min) continue;
      if (run && start <= run.end) {
        run.end = end;
        run.peak = Math.max(run.peak, count);
      } else {
        close();
        run = { start, end, peak: count };
      }
    }
    close();
  }
  return found;
}

/** The ballots grouped by one key of theirs (-1 for none): an address, a browser. */
const groupedBy = (table: SignalTable, keys: number, key: Int32Array, counted: (ballot: number) => boolean = () => true) =>
  groupBy(table.size, keys, (i, emit) => {
    if (key[i] >= 0 && counted(i)) emit(key[i]);
  });

/** "2030-01-01 09:00:00–09:04:10 UTC", or the two full times when the days differ. */
function span(from: number, to: number): string {
  const a = new Date(from).toISOString().slice(0, 19).replace('T', ' ');
  const b = new Date(to).toISOString().slice(0, 19).replace('T', ' ');
  return a.slice(0, 10) === b.slice(0, 10) ? `${a}–${b.slice(11)} UTC` : `${a} – ${b} UTC`;
}

/** Each key's usual events per window: its events spread evenly over the survey's span (at least one window). */
function pace(table: SignalTable, windowMs: number): { usual: (events: number) => number } {
  let first = Infinity;
  let last = -Infinity;
  for (const at of table.at) {
    first = Math.min(first, at);
    last = Math.max(last, at);
  }
  const windows = Math.max(1, (last - first) / windowMs);
  return { usual: (events) => events / windows };
}

/** The bursts of ballots grouped by key that reach `min` and are unlikely at the key's own pace. */
function unlikelyBursts(table: SignalTable, events: Groups, windowMs: number, min: number): Array<Burst & { usual: number }> {
  const { usual } = pace(table, windowMs);
  return bursts(table, events, windowMs, min).flatMap((burst) => {
    const count = events.start[burst.group + 1] - events.start[burst.group];
    const expected = usual(count);
    return chanceOfPeak(burst.peak, expected, count) <= BURST_CHANCE ? [{ ...burst, usual: expected }] : [];
  });
}

const atPace = (usual: number) => (usual < 0.1 ? 'under 0.1' : usual.toFixed(1));

/** The floor's window: a minute, in which a person fills at most `humanPerMinute` ballots. */
const MINUTE = 60_000;

/** The most ballots a person fills in a minute, plus one: the floor's burst. */
const floorMin = (t: SignalThresholds) => Math.floor(t.humanPerMinute) + 1;

/**
 * The bursts over the floor: more of a group's ballots within a minute than a person can fill
 * (`humanPerMinute`), whatever the survey's pace, so that a survey opened a minute ago is
 * guarded too. Each lists every ballot of its wider group (`outer`, `outerOf` the group's: the
 * address of an address and browser, say) within a minute of it; a floor burst whose ballots a
 * burst the pace found (in `outer`) already holds adds nothing.
 */
function floorBursts(
  table: SignalTable,
  events: Groups,
  paced: ReadonlyArray<Burst>,
  t: SignalThresholds,
  outer: Groups = events,
  outerOf: (group: number) => number = (group) => group,
): Burst[] {
  const { at } = table;
  const seen = new Map<number, Set<number>>();
  for (const burst of paced) {
    const ballots = seen.get(burst.group) ?? new Set<number>();
    for (const ballot of burst.ballots) ballots.add(ballot);
    seen.set(burst.group, ballots);
  }
  const found = new Map<string, Burst>();
  for (const burst of bursts(table, events, MINUTE, floorMin(t))) {
    const group = outerOf(burst.group);
    const near = Array.from(
      inTimeOrder(
        table,
        membersOf(outer, group).filter((i) => at[i] >= burst.from - MINUTE && at[i] <= burst.to + MINUTE),
      ),
    );
    const known = seen.get(group);
    if (known && near.every((i) => known.has(i))) continue;
    const key = `${group} ${near[0]}`;
    const before = found.get(key);
    if (!before || before.peak < burst.peak) found.set(key, { group, ballots: near, from: at[near[0]], to: at[near[near.length - 1]], peak: burst.peak });
  }
  return [...found.values()];
}

/** The floor's words in evidence. */
const overFloor = (peak: number, t: SignalThresholds) => `up to ${peak} within 1 min, more than a person can fill (${t.humanPerMinute} a minute)`;

/** How far over the floor a burst is, as a score: 1 just over it. */
const floorScore = (peak: number, t: SignalThresholds) => peak / floorMin(t);

/**
 * Pairs of numbers (an address and a browser, a nominee and an address) numbered from 0 in the
 * order first seen, for the ballots a floor burst may come from: those of an address with at
 * least the floor's ballots (a pair has no more ballots than its address). -1 for the others.
 */
function pairNumbers(
  table: SignalTable,
  t: SignalThresholds,
): { busy: (ballot: number) => boolean; pair: (a: number, b: number, of: number) => number; count: () => number; perAddress: Int32Array } {
  const perAddress = new Int32Array(table.clients.size);
  for (const client of table.client) if (client >= 0) perAddress[client]++;
  const numbers = new Map<number, number>();
  return {
    busy: (ballot) => table.client[ballot] >= 0 && perAddress[table.client[ballot]] >= floorMin(t),
    pair(a, b, of) {
      const key = a * of + b;
      let n = numbers.get(key);
      if (n === undefined) numbers.set(key, (n = numbers.size));
      return n;
    },
    count: () => numbers.size,
    perAddress,
  };
}

/** Ballots from one client address in a short window. */
export function addressBursts(table: SignalTable, t: SignalThresholds): SignalCluster[] {
  const events = groupedBy(table, table.clients.size, table.client);
  const paced = unlikelyBursts(table, events, t.windowMinutes * 60_000, t.addressMin);
  // The floor counts one person: one browser at one address (a hospital's address is many people,
  // on many browsers); the cluster lists every ballot of the address around it.
  const pairs = pairNumbers(table, t);
  const person = new Int32Array(table.size).fill(-1);
  const addressOf: number[] = [];
  for (let i = 0; i < table.size; i++) {
    if (!pairs.busy(i) || table.agent[i] < 0) continue;
    person[i] = pairs.pair(table.client[i], table.agent[i], table.agents.size);
    addressOf[person[i]] = table.client[i];
  }
  const people = groupedBy(table, pairs.count(), person);
  const floor = floorBursts(table, people, paced, t, events, (group) => events.of[addressOf[people.key[group]]]).map(
    (burst): SignalCluster =>
      clusterOf(table, {
        kind: 'address_burst',
        ballots: burst.ballots,
        evidence: `${burst.ballots.length} ballots from one address, ${span(burst.from, burst.to)} (${overFloor(burst.peak, t)})`,
        score: floorScore(burst.peak, t),
      }),
  );
  const clusters = [
    ...floor,
    ...paced.map(
      (burst): SignalCluster =>
        clusterOf(table, {
          kind: 'address_burst',
          ballots: burst.ballots,
          evidence: `${burst.ballots.length} ballots from one address, ${span(burst.from, burst.to)} (up to ${burst.peak} within ${t.windowMinutes} min; ${atPace(burst.usual)} at its usual pace)`,
          score: burst.peak / t.addressMin,
        }),
    ),
  ];
  release(events, people, person, pairs.perAddress);
  return clusters;
}

/** How many addresses a list of ballots comes from, no address counting as one. */
function addresses(table: SignalTable, ballots: ArrayLike<number>): number {
  const seen = new Set<number>();
  for (let k = 0; k < ballots.length; k++) seen.add(table.client[ballots[k]]);
  return seen.size;
}

/** Ballots from one user agent in a short window, from more than one address (one address is an address burst). */
export function deviceBursts(table: SignalTable, t: SignalThresholds): SignalCluster[] {
  const events = groupedBy(table, table.agents.size, table.agent);
  const paced = unlikelyBursts(table, events, t.windowMinutes * 60_000, t.deviceMin);
  // A common browser is many people: over the floor, a browser's minute must also be unlikely at its own pace.
  const { usual } = pace(table, MINUTE);
  const floor = floorBursts(table, events, paced, t).flatMap((burst): SignalCluster[] => {
    const from = addresses(table, burst.ballots);
    const count = events.start[burst.group + 1] - events.start[burst.group];
    if (from < 2 || chanceOfPeak(burst.peak, usual(count), count) > BURST_CHANCE) return [];
    return [
      clusterOf(table, {
        kind: 'device_burst',
        ballots: burst.ballots,
        evidence: `${burst.ballots.length} ballots from one browser (user agent) on ${from} addresses, ${span(burst.from, burst.to)} (${overFloor(burst.peak, t)})`,
        score: floorScore(burst.peak, t),
      }),
    ];
  });
  const clusters = [
    ...floor,
    ...paced.flatMap((burst): SignalCluster[] => {
      const from = addresses(table, burst.ballots);
      if (from < 2) return [];
      return [
        clusterOf(table, {
          kind: 'device_burst',
          ballots: burst.ballots,
          evidence: `${burst.ballots.length} ballots from one browser (user agent) on ${from} addresses, ${span(burst.from, burst.to)} (up to ${burst.peak} within ${t.windowMinutes} min; ${atPace(burst.usual)} at its usual pace)`,
          score: burst.peak / t.deviceMin,
        }),
      ];
    }),
  ];
  release(events);
  return clusters;
}

/** Calls `each` with every distinct vote entry of a ballot, in the order first stored. */
function distinctVotes(table: SignalTable, ballot: number, each: (entry: number) => void) {
  const { votes, voteStart } = table;
  const end = voteStart[ballot + 1];
  for (let v = voteStart[ballot]; v < end; v++) {
    let repeat = false;
    for (let w = voteStart[ballot]; w < v && !repeat; w++) repeat = votes[w] === votes[v];
    if (!repeat) each(votes[v]);
  }
}

/**
 * Votes for one nominee in one sub-category bunched in a window: at least `nomineeMin` of them,
 * `nomineeRatio` times what the nominee's votes spread evenly over the survey would put in a
 * window, and unlikely at that pace. A nominee popular all along is not a burst; thirty votes
 * in a minute are.
 */
export function nomineeBursts(table: SignalTable, t: SignalThresholds, name: NomineeName): SignalCluster[] {
  const events = groupBy(table.size, table.entries.size, (i, emit) => distinctVotes(table, i, emit));
  // The floor: votes for one nominee from one address, more in a minute than a person can fill.
  const pairs = pairNumbers(table, t);
  const entryOf: number[] = [];
  for (let i = 0; i < table.size; i++) {
    if (pairs.busy(i)) distinctVotes(table, i, (entry) => (entryOf[pairs.pair(entry, table.client[i], table.clients.size)] = entry));
  }
  const fromOne = groupBy(table.size, pairs.count(), (i, emit) => {
    if (pairs.busy(i)) distinctVotes(table, i, (entry) => emit(pairs.pair(entry, table.client[i], table.clients.size)));
  });
  const nomineeOf = (entry: number) => {
    const [, subcategory, nomineeId] = table.entries.text(entry).split('\u0000');
    return { subcategory, nomineeId };
  };
  const floor = floorBursts(table, fromOne, [], t).map((burst): SignalCluster => {
    const { subcategory, nomineeId } = nomineeOf(entryOf[fromOne.key[burst.group]]);
    return clusterOf(table, {
      kind: 'nominee_burst',
      ballots: burst.ballots,
      evidence: `${burst.ballots.length} votes for ${name(nomineeId)} in ${subcategory} from one address, ${span(burst.from, burst.to)} (${overFloor(burst.peak, t)})`,
      score: floorScore(burst.peak, t),
    });
  });
  const clusters = [
    ...floor,
    ...unlikelyBursts(table, events, t.windowMinutes * 60_000, t.nomineeMin).flatMap((burst): SignalCluster[] => {
      const { subcategory, nomineeId } = nomineeOf(events.key[burst.group]);
      const ratio = burst.peak / burst.usual;
      if (ratio < t.nomineeRatio) return [];
      return [
        clusterOf(table, {
          kind: 'nominee_burst',
          ballots: burst.ballots,
          evidence: `${burst.ballots.length} votes for ${name(nomineeId)} in ${subcategory}, ${span(burst.from, burst.to)} (up to ${burst.peak} within ${t.windowMinutes} min; ${atPace(burst.usual)} at the nominee's usual pace)`,
          score: Math.min(burst.peak / t.nomineeMin, ratio / t.nomineeRatio),
        }),
      ];
    }),
  ];
  release(events, fromOne, pairs.perAddress);
  return clusters;
}

/** Fast ballots from one address or browser that make a cluster. */
const FAST_MIN = 3;

/**
 * Ballots filled faster than `fastSeconds` (as the page timed them, from the form becoming usable
 * to Submit), three or more from one address, or from one browser on several addresses. A ballot
 * posted without the page has no time and is never fast.
 */
export function fastBallots(table: SignalTable, t: SignalThresholds): SignalCluster[] {
  const { fill } = table;
  // No fill time (NaN) is never under the limit.
  const fast = (i: number) => fill[i] < t.fastSeconds;
  const cluster = (ballots: Int32Array, from: string): SignalCluster => {
    let fastest = Infinity;
    let slowest = -Infinity;
    for (const i of ballots) {
      fastest = Math.min(fastest, fill[i]);
      slowest = Math.max(slowest, fill[i]);
    }
    return clusterOf(table, {
      kind: 'fast_ballot',
      ballots,
      evidence: `${ballots.length} ballots ${from}, each filled in under ${t.fastSeconds} s (fastest ${fastest} s, slowest ${slowest} s)`,
      score: ballots.length / FAST_MIN,
    });
  };
  const clusters: SignalCluster[] = [];
  const byAddress = groupedBy(table, table.clients.size, table.client, fast);
  for (let g = 0; g < byAddress.count; g++) {
    const ballots = membersOf(byAddress, g);
    if (ballots.length >= FAST_MIN) clusters.push(cluster(ballots, 'from one address'));
  }
  const byBrowser = groupedBy(table, table.agents.size, table.agent, fast);
  for (let g = 0; g < byBrowser.count; g++) {
    const ballots = membersOf(byBrowser, g);
    const from = addresses(table, ballots);
    if (ballots.length >= FAST_MIN && from >= 2) clusters.push(cluster(ballots, `from one browser (user agent) on ${from} addresses`));
  }
  release(byAddress, byBrowser);
  return clusters;
}
