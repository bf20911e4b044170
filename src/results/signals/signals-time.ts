import { BURST_CHANCE, chanceOfPeak, type NomineeName, type SignalBallot, type SignalCluster, type SignalThresholds } from './signal-model.ts';

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
export function bursts(events: ReadonlyMap<string, Timed[]>, windowMs: number, min: number): Burst[] {
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

/** Ballots from one client address in a short window. */
export function addressBursts(ballots: readonly SignalBallot[], t: SignalThresholds): SignalCluster[] {
  return unlikelyBursts(
    groupBy(ballots, (b) => b.clientHash),
    ballots,
    t.windowMinutes * 60_000,
    t.addressMin,
  ).map((burst) => ({
    kind: 'address_burst',
    ballotIds: burst.ids,
    evidence: `${burst.ids.length} ballots from one address, ${span(burst.from, burst.to)} (up to ${burst.peak} within ${t.windowMinutes} min; ${atPace(burst.usual)} at its usual pace)`,
    score: burst.peak / t.addressMin,
  }));
}

/** Ballots from one user agent in a short window, from more than one address (one address is an address burst). */
export function deviceBursts(ballots: readonly SignalBallot[], t: SignalThresholds): SignalCluster[] {
  const client = new Map(ballots.map((b) => [b.id, b.clientHash]));
  return unlikelyBursts(
    groupBy(ballots, (b) => b.agentHash),
    ballots,
    t.windowMinutes * 60_000,
    t.deviceMin,
  ).flatMap((burst): SignalCluster[] => {
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
  });
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
  return unlikelyBursts(events, ballots, t.windowMinutes * 60_000, t.nomineeMin).flatMap((burst): SignalCluster[] => {
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
  });
}
