// What a signal is, shared by every detector beneath signals.ts: the kinds of cluster, a ballot as
// the signals see it, the thresholds, and the two pieces of arithmetic more than one detector
// uses (joining ballots into groups, and the chance of a peak at a given pace). It imports no
// detector, so the detectors import it and never each other.

/** The kinds of cluster the signals find. */
export const SIGNAL_KINDS = [
  'address_burst',
  'device_burst',
  'nominee_burst',
  'fast_ballot',
  'near_identical',
  'bad_license',
  'license_repeat',
  'reciprocal',
  'bloc',
] as const;
/** One kind of cluster. */
export type SignalKind = (typeof SIGNAL_KINDS)[number];

/** What each kind means, for the report and `--help`. */
export const SIGNAL_TEXT: Record<SignalKind, string> = {
  address_burst: 'many ballots from one client address (an IPv6 /64) within the window',
  device_burst: 'many ballots from one browser (the same user agent) within the window, across several addresses',
  nominee_burst: "many votes for one nominee within the window, far above that nominee's pace over the survey",
  fast_ballot: 'three or more ballots from one address or browser each filled faster than --fast-seconds, as the page timed them',
  near_identical: 'ballots whose nominations and write-ins differ by at most one entry, far more of them than the popularity of those names predicts',
  bad_license: 'license numbers that fail their check (an NPI check digit, or no license shape at all)',
  license_repeat: 'one license number given with different email addresses',
  reciprocal: 'voters on the nominee list who nominate each other',
  bloc: 'ballots naming the same set of nominees in a sub-category far more often than their separate popularity predicts',
};

/** A ballot as the signals see it: when, from which client, who by their keys, and what it names. */
export interface SignalBallot {
  id: string;
  /** Milliseconds since the epoch. */
  at: number;
  clientHash: string | null;
  agentHash: string | null;
  /** Whole seconds from the form becoming usable to Submit, as the page timed them; null for a ballot posted without the page. */
  fillSeconds: number | null;
  /** The email as compared (trimmed, lower case); '' when none. */
  email: string;
  /** The license as compared (letters and digits, upper case); '' when none. */
  license: string;
  /** The voter's own id on the nominee list, when known. */
  nomineeId?: string;
  votes: ReadonlyArray<{ group: string; subcategory: string; nomineeId: string }>;
  /** The write-ins, each as "group / sub-category / name key". */
  writeIns: readonly string[];
}

/** How much evidence makes a cluster: each a `signals` option. */
export interface SignalThresholds {
  /** The window of the bursts, in minutes. */
  windowMinutes: number;
  /** The most ballots a person can fill in a minute: more from one address or browser in a minute is a burst, however young the survey. */
  humanPerMinute: number;
  /** A ballot filled in fewer seconds than this is fast; three fast ones from one address or browser make a cluster. */
  fastSeconds: number;
  /** Ballots from one address within the window. */
  addressMin: number;
  /** Ballots from one user agent within the window (from at least two addresses). */
  deviceMin: number;
  /** Votes for one nominee within the window… */
  nomineeMin: number;
  /** …and how many times the nominee's usual pace they must be. */
  nomineeRatio: number;
  /** Entries (nominations and write-ins) a ballot needs before near-identical ballots are compared. */
  similarMin: number;
  /** Near-identical ballots that make a cluster: two honest ballots may agree by chance, a template makes more… */
  similarBallots: number;
  /** …and how many times more of them than the popularity of the template's entries predicts. */
  similarLift: number;
  /** Ballots naming one set of nominees in a sub-category… */
  blocMin: number;
  /** …how many nominees the set holds… */
  blocSize: number;
  /** …and how many times more often than their popularity predicts. */
  blocLift: number;
}

/** The defaults: loose enough to catch a stuffed ballot box, tight enough to stay quiet on an honest one. */
export const DEFAULT_THRESHOLDS: SignalThresholds = {
  windowMinutes: 10,
  humanPerMinute: 2,
  fastSeconds: 20,
  addressMin: 5,
  deviceMin: 10,
  nomineeMin: 8,
  nomineeRatio: 5,
  similarMin: 4,
  similarBallots: 3,
  similarLift: 10,
  blocMin: 5,
  blocSize: 3,
  blocLift: 10,
};

/** A group of ballots the evidence ties together. */
export interface SignalCluster {
  kind: SignalKind;
  /** Its ballots' ids; the detectors' clusters read them afresh from their ballots each time they are asked for (clusterOf): take them once a use. */
  ballotIds: string[];
  /** One line: what was seen. */
  evidence: string;
  /** How many times its threshold the evidence is: 1 just at it, higher stronger. */
  score: number;
}

/** The word for a score: high from 3 times the threshold, medium from 1.5, else low. */
export function strength(score: number): 'high' | 'medium' | 'low' {
  return score >= 3 ? 'high' : score >= 1.5 ? 'medium' : 'low';
}

/** Names a nominee in evidence: "Ana Ferreira (c-1)", or the id alone. */
export type NomineeName = (id: string) => string;

/** Groups of items joined by shared links: a union-find in one typed array, whose groups are listed from `min` members up. */
export function unionFind(size: number): { union(a: number, b: number): void; groups(min?: number): number[][] } {
  const parent = new Int32Array(size);
  for (let i = 0; i < size; i++) parent[i] = i;
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };
  return {
    union(a, b) {
      const x = find(a);
      const y = find(b);
      // The smaller item leads, so that a group's first item is its leader and groups list in the order of their first item.
      if (x !== y) parent[Math.max(x, y)] = Math.min(x, y);
    },
    groups(min = 1) {
      const sizes = new Int32Array(size);
      for (let i = 0; i < size; i++) sizes[find(i)]++;
      const groups = new Map<number, number[]>();
      for (let i = 0; i < size; i++) {
        const root = find(i);
        if (sizes[root] < min) continue;
        const group = groups.get(root);
        if (group) group.push(i);
        else groups.set(root, [i]);
      }
      // Its memory goes back at once: the groups of a million items are counted in a list this long.
      if (sizes.byteLength >= 1 << 16) sizes.buffer.transfer(0);
      return [...groups.values()];
    },
  };
}

/**
 * How many of a key's events would, by chance, open a window holding `peak` events, were the
 * key's `events` spread at random over the survey at their overall pace (`usual` a window):
 * each event starts a window in which the others fall as a Poisson count, so this is
 * events × P(X ≥ peak − 1). A burst must make it at most `BURST_CHANCE`, so that a busy key
 * (a popular browser, a well-known nominee, a hospital's shared address) at its ordinary pace
 * is no burst, however large the survey.
 */
export function chanceOfPeak(peak: number, usual: number, events: number): number {
  const k = peak - 1;
  if (k <= usual) return events;
  // Sum the tail's terms from k up, in logarithms (they shrink once past the mean).
  let logTerm = -usual + k * Math.log(usual) - logFactorial(k);
  let tail = 0;
  for (let i = k; i < k + 1000; i++) {
    tail += Math.exp(logTerm);
    logTerm += Math.log(usual) - Math.log(i + 1);
    if (Math.exp(logTerm) < tail * 1e-12) break;
  }
  return Math.min(1, tail) * events;
}

const logFactorials = [0];
function logFactorial(n: number): number {
  for (let i = logFactorials.length; i <= n; i++) logFactorials.push(logFactorials[i - 1] + Math.log(i));
  return logFactorials[n];
}

/** How often an honest survey may show a key's burst by chance: one survey in a thousand. */
export const BURST_CHANCE = 0.001;
