import {
  BURST_CHANCE,
  chanceOfPeak,
  type NomineeName,
  type SignalBallot,
  type SignalCluster,
  type SignalThresholds,
} from '../../../src/results/signals/signal-model.ts';

/** One event of a burst: a ballot (its id) at a time, under a key (an address hash, a nominee). */
interface Timed {
  id: string;
  at: number;
}

/** A run of events under one key in which every event lies in a window holding at least `min` events. */
interface Burst {
  key: string;
  ids: string[];
  from: number;
  to: number;
  /** The most events any one window of the run holds. */
  peak: number;
}

/**
 * The bursts among events grouped by key: a sliding window of `windowMs` over each key's events
 * in time order; windows holding at least `min` events that overlap merge into one burst.
 * Exported only so its unit test can check it directly; the product reaches it through addressBursts and deviceBursts.
 * @internal
 */
function bursts(events: ReadonlyMap<string, Timed[]>, windowMs: number, min: number): Burst[] {
  const found: Burst[] = [];
  for (const [key, list] of events) {
    if (list.length < min) continue;
    const sorted = [...list].sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
    let run: { start: number; end: number; peak: number } | undefined;
    const close = () => {
      if (!run) return;
      const ids = sorted.slice(run.start, run.end + 1);
      found.push({ key, ids: ids.map((e) => e.id), from: ids[0].at, to: ids[ids.length - 1].at, peak: run.peak });
      run = undefined;
    };
    let start = 0;
    for (let end = 0; end < sorted.length; end++) {
      while (sorted[end].at - sorted[start].at > windowMs) start++;
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

function groupBy(ballots: readonly SignalBallot[], key: (ballot: SignalBallot) => string | null | undefined): Map<string, Timed[]> {
  const groups = new Map<string, Timed[]>();
  for (const ballot of ballots) {
    const k = key(ballot);
    if (!k) continue;
    const list = groups.get(k);
    if (list) list.push({ id: ballot.id, at: ballot.at });
    else groups.set(k, [{ id: ballot.id, at: ballot.at }]);
  }
  return groups;
}

/** "2030-01-01 09:00:00–09:04:10 UTC", or the two full times when the days differ. */
function span(from: number, to: number): string {
  const a = new Date(from).toISOString().slice(0, 19).replace('T', ' ');
  const b = new Date(to).toISOString().slice(0, 19).replace('T', ' ');
  return a.slice(0, 10) === b.slice(0, 10) ? `${a}–${b.slice(11)} UTC` : `${a} – ${b} UTC`;
}

/** Each key's usual events per window: its events spread evenly over the survey's span (at least one window). */
function pace(ballots: readonly SignalBallot[], windowMs: number): { usual: (events: number) => number } {
  let first = Infinity;
  let last = -Infinity;
  for (const ballot of ballots) {
    first = Math.min(first, ballot.at);
    last = Math.max(last, ballot.at);
  }
  const windows = Math.max(1, (last - first) / windowMs);
  return { usual: (events) => events / windows };
}

/** The bursts of events grouped by key that reach `min` and are unlikely at the key's own pace. */
function unlikelyBursts(
  events: ReadonlyMap<string, Timed[]>,
  ballots: readonly SignalBallot[],
  windowMs: number,
  min: number,
): Array<Burst & { usual: number }> {
  const { usual } = pace(ballots, windowMs);
  return bursts(events, windowMs, min).flatMap((burst) => {
    const count = events.get(burst.key)!.length;
    const expected = usual(count);
    return chanceOfPeak(burst.peak, expected, count) <= BURST_CHANCE ? [{ ...burst, usual: expected }] : [];
  });
}

const atPace = (usual: number) => (usual < 0.1 ? 'under 0.1' : usual.toFixed(1));

/** The floor's window: a minute, in which a person fills at most `humanPerMinute` ballots. */
const MINUTE = 60_000;

/**
 * The bursts over the floor: more events under a key within a minute than a person can fill
 * (`humanPerMinute`), whatever the survey's pace, so that a survey opened a minute ago is
 * guarded too. Each lists every event of its group (`groupOf` the key: the address of an
 * address and browser, say) within a minute of it; a floor burst whose events a burst the pace
 * found already holds adds nothing.
 */
function floorBursts(
  events: ReadonlyMap<string, Timed[]>,
  paced: ReadonlyArray<Burst>,
  t: SignalThresholds,
  groups: ReadonlyMap<string, Timed[]> = events,
  groupOf: (key: string) => string = (key) => key,
): Burst[] {
  const seen = new Map<string, Set<string>>();
  for (const burst of paced) {
    const ids = seen.get(burst.key) ?? new Set<string>();
    for (const id of burst.ids) ids.add(id);
    seen.set(burst.key, ids);
  }
  const found = new Map<string, Burst>();
  for (const burst of bursts(events, MINUTE, Math.floor(t.humanPerMinute) + 1)) {
    const group = groupOf(burst.key);
    const near = (groups.get(group) ?? [])
      .filter((e) => e.at >= burst.from - MINUTE && e.at <= burst.to + MINUTE)
      .sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
    const known = seen.get(group);
    if (known && near.every((e) => known.has(e.id))) continue;
    const key = `${group}\u0000${near[0].id}`;
    const before = found.get(key);
    if (!before || before.peak < burst.peak)
      found.set(key, { key: group, ids: near.map((e) => e.id), from: near[0].at, to: near[near.length - 1].at, peak: burst.peak });
  }
  return [...found.values()];
}

/** The floor's words in evidence. */
const overFloor = (peak: number, t: SignalThresholds) => `up to ${peak} within 1 min, more than a person can fill (${t.humanPerMinute} a minute)`;

/** How far over the floor a burst is, as a score: 1 just over it. */
const floorScore = (peak: number, t: SignalThresholds) => peak / (Math.floor(t.humanPerMinute) + 1);

/** Ballots from one client address in a short window. */
export function addressBursts(ballots: readonly SignalBallot[], t: SignalThresholds): SignalCluster[] {
  const events = groupBy(ballots, (b) => b.clientHash);
  const paced = unlikelyBursts(events, ballots, t.windowMinutes * 60_000, t.addressMin);
  // The floor counts one person: one browser at one address (a hospital's address is many people,
  // on many browsers); the cluster lists every ballot of the address around it.
  const people = groupBy(ballots, (b) => (b.clientHash && b.agentHash ? `${b.clientHash}\u0000${b.agentHash}` : null));
  const floor = floorBursts(people, paced, t, events, (key) => key.split('\u0000')[0]).map(
    (burst): SignalCluster => ({
      kind: 'address_burst',
      ballotIds: burst.ids,
      evidence: `${burst.ids.length} ballots from one address, ${span(burst.from, burst.to)} (${overFloor(burst.peak, t)})`,
      score: floorScore(burst.peak, t),
    }),
  );
  return [
    ...floor,
    ...paced.map(
      (burst): SignalCluster => ({
        kind: 'address_burst',
        ballotIds: burst.ids,
        evidence: `${burst.ids.length} ballots from one address, ${span(burst.from, burst.to)} (up to ${burst.peak} within ${t.windowMinutes} min; ${atPace(burst.usual)} at its usual pace)`,
        score: burst.peak / t.addressMin,
      }),
    ),
  ];
}

/** Ballots from one user agent in a short window, from more than one address (one address is an address burst). */
export function deviceBursts(ballots: readonly SignalBallot[], t: SignalThresholds): SignalCluster[] {
  const client = new Map(ballots.map((b) => [b.id, b.clientHash]));
  const events = groupBy(ballots, (b) => b.agentHash);
  const paced = unlikelyBursts(events, ballots, t.windowMinutes * 60_000, t.deviceMin);
  // A common browser is many people: over the floor, a browser's minute must also be unlikely at its own pace.
  const { usual } = pace(ballots, MINUTE);
  const floor = floorBursts(events, paced, t).flatMap((burst): SignalCluster[] => {
    const addresses = new Set(burst.ids.map((id) => client.get(id) ?? '')).size;
    const count = events.get(burst.key)!.length;
    if (addresses < 2 || chanceOfPeak(burst.peak, usual(count), count) > BURST_CHANCE) return [];
    return [
      {
        kind: 'device_burst',
        ballotIds: burst.ids,
        evidence: `${burst.ids.length} ballots from one browser (user agent) on ${addresses} addresses, ${span(burst.from, burst.to)} (${overFloor(burst.peak, t)})`,
        score: floorScore(burst.peak, t),
      },
    ];
  });
  return [
    ...floor,
    ...paced.flatMap((burst): SignalCluster[] => {
      const addresses = new Set(burst.ids.map((id) => client.get(id) ?? '')).size;
      if (addresses < 2) return [];
      return [
        {
          kind: 'device_burst',
          ballotIds: burst.ids,
          evidence: `${burst.ids.length} ballots from one browser (user agent) on ${addresses} addresses, ${span(burst.from, burst.to)} (up to ${burst.peak} within ${t.windowMinutes} min; ${atPace(burst.usual)} at its usual pace)`,
          score: burst.peak / t.deviceMin,
        },
      ];
    }),
  ];
}

/**
 * Votes for one nominee in one sub-category bunched in a window: at least `nomineeMin` of them,
 * `nomineeRatio` times what the nominee's votes spread evenly over the survey would put in a
 * window, and unlikely at that pace. A nominee popular all along is not a burst; thirty votes
 * in a minute are.
 */
export function nomineeBursts(ballots: readonly SignalBallot[], t: SignalThresholds, name: NomineeName): SignalCluster[] {
  const events = new Map<string, Timed[]>();
  for (const ballot of ballots) {
    for (const key of new Set(ballot.votes.map((v) => `${v.group}\u0000${v.subcategory}\u0000${v.nomineeId}`))) {
      const list = events.get(key);
      if (list) list.push({ id: ballot.id, at: ballot.at });
      else events.set(key, [{ id: ballot.id, at: ballot.at }]);
    }
  }
  // The floor: votes for one nominee from one address, more in a minute than a person can fill.
  const fromOne = new Map<string, Timed[]>();
  for (const ballot of ballots) {
    if (!ballot.clientHash) continue;
    for (const key of new Set(ballot.votes.map((v) => `${v.group}\u0000${v.subcategory}\u0000${v.nomineeId}\u0000${ballot.clientHash}`))) {
      const list = fromOne.get(key);
      if (list) list.push({ id: ballot.id, at: ballot.at });
      else fromOne.set(key, [{ id: ballot.id, at: ballot.at }]);
    }
  }
  const floor = floorBursts(fromOne, [], t).map((burst): SignalCluster => {
    const [, subcategory, nomineeId] = burst.key.split('\u0000');
    return {
      kind: 'nominee_burst',
      ballotIds: burst.ids,
      evidence: `${burst.ids.length} votes for ${name(nomineeId)} in ${subcategory} from one address, ${span(burst.from, burst.to)} (${overFloor(burst.peak, t)})`,
      score: floorScore(burst.peak, t),
    };
  });
  return [
    ...floor,
    ...unlikelyBursts(events, ballots, t.windowMinutes * 60_000, t.nomineeMin).flatMap((burst): SignalCluster[] => {
      const [, subcategory, nomineeId] = burst.key.split('\u0000');
      const ratio = burst.peak / burst.usual;
      if (ratio < t.nomineeRatio) return [];
      return [
        {
          kind: 'nominee_burst',
          ballotIds: burst.ids,
          evidence: `${burst.ids.length} votes for ${name(nomineeId)} in ${subcategory}, ${span(burst.from, burst.to)} (up to ${burst.peak} within ${t.windowMinutes} min; ${atPace(burst.usual)} at the nominee's usual pace)`,
          score: Math.min(burst.peak / t.nomineeMin, ratio / t.nomineeRatio),
        },
      ];
    }),
  ];
}

/** Fast ballots from one address or browser that make a cluster. */
const FAST_MIN = 3;

/**
 * Ballots filled faster than `fastSeconds` (as the page timed them, from the form becoming usable
 * to Submit), three or more from one address, or from one browser on several addresses. A ballot
 * posted without the page has no time and is never fast.
 */
export function fastBallots(ballots: readonly SignalBallot[], t: SignalThresholds): SignalCluster[] {
  const fast = ballots.filter((b) => b.fillSeconds !== null && b.fillSeconds < t.fastSeconds);
  const seconds = new Map(fast.map((b) => [b.id, b.fillSeconds!]));
  const client = new Map(fast.map((b) => [b.id, b.clientHash]));
  const cluster = (ids: string[], from: string): SignalCluster => {
    const times = ids.map((id) => seconds.get(id)!);
    return {
      kind: 'fast_ballot',
      ballotIds: ids,
      evidence: `${ids.length} ballots ${from}, each filled in under ${t.fastSeconds} s (fastest ${Math.min(...times)} s, slowest ${Math.max(...times)} s)`,
      score: ids.length / FAST_MIN,
    };
  };
  const clusters: SignalCluster[] = [];
  for (const list of groupBy(fast, (b) => b.clientHash).values())
    if (list.length >= FAST_MIN)
      clusters.push(
        cluster(
          list.map((e) => e.id),
          'from one address',
        ),
      );
  for (const list of groupBy(fast, (b) => b.agentHash).values()) {
    const addresses = new Set(list.map((e) => client.get(e.id) ?? '')).size;
    if (list.length >= FAST_MIN && addresses >= 2)
      clusters.push(
        cluster(
          list.map((e) => e.id),
          `from one browser (user agent) on ${addresses} addresses`,
        ),
      );
  }
  return clusters;
}
