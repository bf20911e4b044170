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

/**
 * Ballots by key, as their places in `ballots`: a key met once holds its one place as a number,
 * so that a million ballots each from an address of its own cost no list apiece.
 */
type Places = Map<string, number | number[]>;

function groupBy(ballots: readonly SignalBallot[], key: (ballot: SignalBallot) => string | null | undefined): Places {
  const groups: Places = new Map();
  ballots.forEach((ballot, i) => {
    const k = key(ballot);
    if (k) add(groups, k, i);
  });
  return groups;
}

function add(groups: Places, key: string, place: number): void {
  const known = groups.get(key);
  if (known === undefined) groups.set(key, place);
  else if (typeof known === 'number') groups.set(key, [known, place]);
  else known.push(place);
}

const countOf = (places: number | number[]) => (typeof places === 'number' ? 1 : places.length);

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

/**
 * The bursts of ballots grouped by key that reach `min` and are unlikely at the key's own pace;
 * each key's events are made from its ballots only when it has `min` of them, one key at a time.
 */
function unlikelyBursts(groups: Places, ballots: readonly SignalBallot[], windowMs: number, min: number): Array<Burst & { usual: number }> {
  const { usual } = pace(ballots, windowMs);
  const found: Array<Burst & { usual: number }> = [];
  for (const [key, places] of groups) {
    const count = countOf(places);
    if (count < min || typeof places === 'number') continue;
    const events = new Map([[key, places.map((i) => ({ id: ballots[i].id, at: ballots[i].at }))]]);
    const expected = usual(count);
    for (const burst of bursts(events, windowMs, min)) if (chanceOfPeak(burst.peak, expected, count) <= BURST_CHANCE) found.push({ ...burst, usual: expected });
  }
  return found;
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
  const found = unlikelyBursts(
    groupBy(ballots, (b) => b.agentHash),
    ballots,
    t.windowMinutes * 60_000,
    t.deviceMin,
  );
  // The addresses of the ballots in bursts only: a map of every ballot's would cost more than the ballots.
  const inBursts = new Set(found.flatMap((burst) => burst.ids));
  const client = new Map<string, string | null>();
  if (inBursts.size) for (const b of ballots) if (inBursts.has(b.id)) client.set(b.id, b.clientHash);
  return found.flatMap((burst): SignalCluster[] => {
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
  const events: Places = new Map();
  // Votes are shared between ballots (signalBallots): each one's key is made once.
  const keyOf = new Map<SignalBallot['votes'][number], string>();
  const voteKey = (v: SignalBallot['votes'][number]) => {
    let key = keyOf.get(v);
    if (key === undefined) keyOf.set(v, (key = `${v.group}\u0000${v.subcategory}\u0000${v.nomineeId}`));
    return key;
  };
  ballots.forEach((ballot, i) => {
    for (const key of new Set(ballot.votes.map(voteKey))) add(events, key, i);
  });
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
