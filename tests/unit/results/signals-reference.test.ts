import { describe, expect, test } from 'vitest';
import { detectSignals } from '../../../src/results/signals/signals.ts';
import { signalTable } from '../../../src/results/signals/signal-table.ts';
import { DEFAULT_THRESHOLDS, type SignalBallot, type SignalThresholds } from '../../../src/results/signals/signal-model.ts';
import { referenceSignals } from '../../support/signals-reference/detect.ts';
import { honestBallots, plantedPatterns } from '../../support/signal-ballots.ts';

/** A seeded generator of numbers in [0, 1) (mulberry32): the same ballots at every run. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Ballots unlike honest ones: few addresses and browsers, ties in time, out of order, empty and missing values, repeats, write-ins. */
function messy(count: number, seed: number): SignalBallot[] {
  const r = seeded(seed);
  const pick = (n: number) => Math.floor(r() * n);
  const start = Date.parse('2030-01-01T00:00:00Z');
  return Array.from({ length: count }, (_, i) => {
    const votes = Array.from({ length: pick(7) }, () => ({ group: pick(2) ? 'G' : 'H', subcategory: `S${pick(3)}`, nomineeId: `n-${pick(25)}` }));
    return {
      id: `b-${pick(1e9).toString(36)}-${i}`,
      at: start + pick(4) * 60_000 * pick(30) + pick(3) * 1000,
      clientHash: [null, '', `c${pick(6)}`, `c${pick(60)}`][pick(4)],
      agentHash: [null, '', `a${pick(4)}`, `a${pick(40)}`][pick(4)],
      fillSeconds: pick(3) ? null : pick(60),
      email: pick(4) ? `e${pick(30)}@x` : '',
      license: ['', 'MD1234', '1234567890', '12', `MD${pick(9)}00${pick(9)}`, '0000000'][pick(6)],
      nomineeId: pick(3) ? undefined : `n-${pick(25)}`,
      votes,
      writeIns: pick(5) ? [] : [`G / S${pick(3)} / w${pick(4)}`, ...(pick(2) ? ['G / S1 / w1'] : [])],
    };
  });
}

const thresholdSets: Array<[string, SignalThresholds]> = [
  ['the defaults', DEFAULT_THRESHOLDS],
  [
    'loose thresholds',
    {
      ...DEFAULT_THRESHOLDS,
      humanPerMinute: 1,
      addressMin: 3,
      deviceMin: 3,
      nomineeMin: 3,
      nomineeRatio: 1.5,
      similarBallots: 2,
      similarLift: 1,
      similarMin: 2,
      blocMin: 2,
      blocSize: 2,
      blocLift: 1,
      fastSeconds: 30,
      windowMinutes: 30,
    },
  ],
  ['short windows', { ...DEFAULT_THRESHOLDS, humanPerMinute: 0.5, windowMinutes: 1.5, blocSize: 2, blocMin: 3 }],
];

const patterns = () => Object.values(plantedPatterns()).flat();
const datasets: Array<[string, () => SignalBallot[]]> = [
  ['600 honest ballots and every planted pattern', () => [...honestBallots(600), ...patterns()].sort((a, b) => a.at - b.at)],
  ['300 honest ballots and the patterns, out of order', () => [...honestBallots(300, 3), ...patterns()]],
  ['2,000 honest ballots in one day', () => honestBallots(2000, 11, 1)],
  ...Array.from({ length: 12 }, (_, s): [string, () => SignalBallot[]] => [`messy set ${s + 1}`, () => messy(60 + s * 60, s + 1)]),
  ['no ballots', () => []],
];

describe('the signals held column by column find exactly what the per-ballot objects found', () => {
  const name = (id: string) => `Dr ${id}`;
  test.each(datasets)('%s: the same clusters, evidence, scores and order under every threshold set', (_, make) => {
    const ballots = make();
    let clusters = 0;
    for (const [label, thresholds] of thresholdSets) {
      const expected = referenceSignals(ballots, thresholds, name);
      const found = detectSignals(signalTable(ballots), thresholds, name).map((c) => ({ ...c, ballotIds: c.ballotIds }));
      expect(JSON.stringify(found), label).toBe(JSON.stringify(expected));
      clusters += expected.length;
    }
    if (ballots.length) expect(clusters).toBeGreaterThan(0);
  });
});
