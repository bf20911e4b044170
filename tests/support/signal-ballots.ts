import type { SignalBallot } from '../../src/results/signals/signal-model.ts';

// Generated ballots for the fraud signals: an honest survey, and the same survey with each
// pattern planted in it. Seeded, so every run sees the same ballots.

/** A seeded random number generator (mulberry32): the same seed gives the same numbers. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const START = Date.parse('2030-03-01T00:00:00Z');
const DAYS = 14;
const SUBS = ['Cardiology', 'Dermatology'];
const LIST = 200;
const AGENTS = 25;

/** Ten digits with a valid NPI check digit, from nine. */
export function npiWithCheck(nine: string): string {
  for (let d = 0; d < 10; d++) {
    const all = `80840${nine}${d}`;
    let sum = 0;
    for (let i = 0; i < all.length; i++) {
      let digit = Number(all[all.length - 1 - i]);
      if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
      sum += digit;
    }
    if (sum % 10 === 0) return `${nine}${d}`;
  }
  throw new Error('unreachable');
}

/** An honest survey: voters over `days` (two weeks), each from their own address, picking nominees by a long-tailed popularity. */
export function honestBallots(count: number, seed = 7, days = DAYS): SignalBallot[] {
  const random = seeded(seed);
  const pick = (n: number) => Math.floor(random() * n);
  // Popularity falls off as 1/rank^0.8: a few well-known names, a long tail.
  const weights = Array.from({ length: LIST }, (_, i) => 1 / (i + 1) ** 0.8);
  const total = weights.reduce((a, b) => a + b, 0);
  const popular = () => {
    let r = random() * total;
    for (let i = 0; i < LIST; i++) if ((r -= weights[i]) <= 0) return i;
    return LIST - 1;
  };
  const ballots: SignalBallot[] = [];
  for (let i = 0; i < count; i++) {
    const votes = SUBS.flatMap((subcategory, s) => {
      const chosen = new Set<number>();
      while (chosen.size < 3) chosen.add(popular());
      return [...chosen].map((n) => ({ group: 'Medicine', subcategory, nomineeId: `${s ? 'd' : 'c'}-${n}` }));
    });
    // Most voters use one of a few common browsers; a hospital's network puts a few behind one address, days apart.
    const agent = Math.min(pick(AGENTS), pick(AGENTS));
    ballots.push({
      id: `h-${String(i).padStart(4, '0')}`,
      at: START + Math.floor(random() * days * 86_400_000),
      clientHash: i % 10 === 0 ? `addr-hospital-${pick(5)}` : `addr-${i}`,
      agentHash: `agent-${agent}`,
      // An honest voter takes minutes over a ballot.
      fillSeconds: 120 + pick(600),
      email: `voter${i}@example.org`,
      license: i % 3 === 0 ? npiWithCheck(String(100000000 + i * 7919).slice(0, 9)) : `MD${100000 + i}`,
      nomineeId: i % 7 === 0 ? `c-${i / 7}` : undefined,
      votes,
      writeIns: random() < 0.05 ? [`Medicine / Cardiology / write in ${pick(1000)}`] : [],
    });
  }
  return ballots.sort((a, b) => a.at - b.at);
}

const minutes = (n: number) => n * 60_000;

/** One honest-looking ballot to plant a pattern in; `changes` make the pattern. */
function planted(id: string, at: number, changes: Partial<SignalBallot>): SignalBallot {
  return {
    id,
    at,
    clientHash: `addr-${id}`,
    agentHash: `agent-${id}`,
    fillSeconds: null,
    email: `${id}@example.org`,
    license: '',
    // A different dermatologist for each planted ballot, so that no pattern plants another by chance.
    votes: [{ group: 'Medicine', subcategory: 'Dermatology', nomineeId: `d-${[...id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 997, 0) % LIST}` }],
    writeIns: [],
    ...changes,
  };
}

/** The patterns the signals must find, each a list of the ballots planted for it. */
export function plantedPatterns(): Record<string, SignalBallot[]> {
  const day = (n: number) => START + n * 86_400_000;
  const range = (n: number) => Array.from({ length: n }, (_, i) => i);
  const cardiology = (...ids: string[]) => ids.map((nomineeId) => ({ group: 'Medicine', subcategory: 'Cardiology', nomineeId }));
  return {
    // 30 ballots a minute from one address, made-up names, licence-less.
    address_burst: range(30).map((i) =>
      planted(`addr-${i}`, day(2) + i * 2_000, { clientHash: 'addr-stuffer', agentHash: `agent-${i % 3}`, votes: cardiology(`c-${150 + (i % 40)}`) }),
    ),
    // One scripted browser behind rotating addresses.
    device_burst: range(12).map((i) => planted(`dev-${i}`, day(4) + minutes(i * 0.5), { agentHash: 'agent-headless-bot' })),
    // Ten votes in six minutes for a little-known nominee, from different people.
    nominee_burst: range(10).map((i) => planted(`nom-${i}`, day(6) + minutes(i * 0.6), { votes: cardiology('c-177', `c-${i}`) })),
    // Copies of one template, spread over days.
    near_identical: range(3).map((i) =>
      planted(`copy-${i}`, day(1 + i * 3) + minutes(i * 37), { votes: cardiology('c-190', 'c-191', 'c-192', 'c-193', i === 2 ? 'c-199' : 'c-194') }),
    ),
    // Licence numbers that fail their check.
    bad_license: [
      planted('lic-0', day(3), { license: '1234567890' }),
      planted('lic-1', day(5), { license: '12' }),
      planted('lic-2', day(9), { license: '0000000' }),
    ],
    // One licence, three emails.
    license_repeat: range(3).map((i) => planted(`rep-${i}`, day(2 + i * 4), { license: 'MD777777', email: `someone${i}@example.org` })),
    // Two voters on the list naming each other.
    reciprocal: [
      planted('rec-0', day(7), { nomineeId: 'c-160', votes: cardiology('c-161', 'c-5') }),
      planted('rec-1', day(8), { nomineeId: 'c-161', votes: cardiology('c-160', 'c-9') }),
    ],
    // Four ballots from one address, days apart, each filled in seconds.
    fast_ballot: range(4).map((i) => planted(`fast-${i}`, day(1 + i * 2) + minutes(i * 53), { clientHash: 'addr-fast', fillSeconds: 6 + i })),
    // Six ballots naming the same three little-known cardiologists, days apart.
    bloc: range(6).map((i) => planted(`bloc-${i}`, day(i * 2) + minutes(i * 101), { votes: cardiology('c-181', 'c-182', 'c-183') })),
  };
}
