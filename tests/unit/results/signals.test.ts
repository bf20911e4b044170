import { describe, expect, test } from 'vitest';
import { countSignals, detectSignals } from '../../../src/results/signals/signals.ts';
import { DEFAULT_THRESHOLDS, SIGNAL_KINDS, strength, type SignalBallot } from '../../../src/results/signals/signal-model.ts';
import { bursts, nomineeBursts } from '../../../src/results/signals/signals-time.ts';
import { licenseSignals, nearIdentical } from '../../../src/results/signals/signals-ballots.ts';
import { blocs, reciprocalNominations } from '../../../src/results/signals/signals-ties.ts';
import { distinctBallots, groupBy, Interner, signalTable, TextColumn } from '../../../src/results/signals/signal-table.ts';
import { licenseProblem } from '../../../src/results/signals/license-check.ts';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { addressKey, clientHashes, requestHashes, signalsSecret, surveySalt } from '../../../src/server/intake/signals-salt.ts';
import { readServerConfig } from '../../../src/server/config.ts';
import { honestBallots, npiWithCheck, plantedPatterns } from '../../support/signal-ballots.ts';

const T = DEFAULT_THRESHOLDS;
const at = (minute: number) => Date.parse('2030-01-01T09:00:00Z') + minute * 60_000;
const ballot = (id: string, changes: Partial<SignalBallot> = {}): SignalBallot => ({
  id,
  at: at(0),
  clientHash: `a-${id}`,
  agentHash: `u-${id}`,
  fillSeconds: null,
  email: '',
  license: '',
  votes: [],
  writeIns: [],
  ...changes,
});
const cardiology = (...ids: string[]) => ids.map((nomineeId) => ({ group: 'Medicine', subcategory: 'Cardiology', nomineeId }));

describe('from the first minute', () => {
  test('12 made-up ballots from one address within seconds, on a survey opened a minute ago, make one address burst of all 12', () => {
    const burst = Array.from({ length: 12 }, (_, i) =>
      ballot(`s-${i}`, { at: at(1) + i * 3_000, clientHash: 'a-script', agentHash: 'u-script', votes: cardiology('c-9') }),
    );
    const found = detectSignals(signalTable(burst)).filter((c) => c.kind === 'address_burst');
    expect(found.map((c) => c.ballotIds)).toEqual([burst.map((b) => b.id)]);
    expect(found[0].evidence).toContain('more than a person can fill (2 a minute)');
    // The votes they carry for one nominee from one address are over the floor too.
    expect(detectSignals(signalTable(burst)).some((c) => c.kind === 'nominee_burst')).toBe(true);
  });

  test('two ballots a minute from one address are a person’s pace; --human-per-minute sets it', () => {
    const two = [ballot('p-0', { clientHash: 'a-1', agentHash: 'u-1' }), ballot('p-1', { at: at(0.5), clientHash: 'a-1', agentHash: 'u-1' })];
    expect(detectSignals(signalTable(two))).toEqual([]);
    expect(detectSignals(signalTable(two), { ...T, humanPerMinute: 1 }).map((c) => c.kind)).toContain('address_burst');
  });

  test('a shared address (many browsers) is many people: no floor burst for three people in a minute', () => {
    const ward = ['u-1', 'u-2', 'u-3'].map((agentHash, i) => ballot(`w-${i}`, { at: at(i * 0.2), clientHash: 'a-ward', agentHash }));
    expect(detectSignals(signalTable(ward))).toEqual([]);
  });

  test('three ballots filled faster than --fast-seconds from one address are a fast_ballot cluster; two are not, nor untimed ones', () => {
    const fast = (id: string, fillSeconds: number | null, minute: number) => ballot(id, { at: at(minute * 600), clientHash: 'a-quick', fillSeconds });
    const three = [fast('f-0', 5, 0), fast('f-1', 19, 1), fast('f-2', 12, 2), fast('f-3', 25, 3)];
    expect(detectSignals(signalTable(three)).map((c) => [c.kind, c.ballotIds])).toEqual([['fast_ballot', ['f-0', 'f-1', 'f-2']]]);
    expect(detectSignals(signalTable(three), { ...T, fastSeconds: 10 })).toEqual([]);
    expect(detectSignals(signalTable([fast('g-0', null, 0), fast('g-1', null, 1), fast('g-2', null, 2)]))).toEqual([]);
  });
});

describe('bursts in time', () => {
  test('overlapping full windows merge into one burst; a gap longer than the window starts another', () => {
    const table = signalTable([0, 1, 2, 3, 4, 30, 31, 32, 33, 34, 35, 60].map((minute, i) => ballot(`b${i}`, { at: at(minute), clientHash: 'k' })));
    const oneKey = groupBy(table.size, 1, (_, emit) => emit(0));
    const found = bursts(table, oneKey, 10 * 60_000, 5);
    expect(found.map((b) => [b.ballots.length, b.peak])).toEqual([
      [5, 5],
      [6, 6],
    ]);
    expect(bursts(table, oneKey, 10 * 60_000, 7)).toEqual([]);
  });

  test('a nominee popular all along is not a burst; the same votes bunched in minutes are', () => {
    const steady = Array.from({ length: 40 }, (_, i) => ballot(`s${i}`, { at: at(i * 60), votes: cardiology('c-1') }));
    expect(nomineeBursts(signalTable(steady), T, (id) => id)).toEqual([]);
    const bunched = [...steady, ...Array.from({ length: 9 }, (_, i) => ballot(`x${i}`, { at: at(600 + i), votes: cardiology('c-2') }))];
    const found = nomineeBursts(signalTable(bunched), T, (id) => `Dr ${id}`);
    expect(found).toHaveLength(1);
    expect(found[0].ballotIds).toEqual(Array.from({ length: 9 }, (_, i) => `x${i}`));
    expect(found[0].evidence).toMatch(/^9 votes for Dr c-2 in Cardiology, 2030-01-01 19:00:00–19:08:00 UTC/);
  });
});

describe('licenses', () => {
  test.each([
    ['1234567893', undefined],
    ['NPI 1234567893', undefined],
    ['1234567890', 'an NPI with a wrong check digit'],
    ['MD-418203', undefined],
    ['12', 'too short for a license number'],
    ['ABCDE1', 'too few digits for a license number'],
    ['0000000', 'one character repeated'],
    ['', undefined],
  ])('%j: %s', (license, problem) => expect(licenseProblem(license)).toBe(problem));

  test('the NPI check digit is the Luhn digit over 80840 and the nine digits', () => {
    expect(licenseProblem('1234567893')).toBeUndefined();
    expect(licenseProblem(npiWithCheck('987654321'))).toBeUndefined();
    // Every other last digit is a wrong check digit.
    for (let digit = 0; digit <= 9; digit++) {
      if (digit === 3) continue;
      expect(licenseProblem(`123456789${digit}`)).toBe('an NPI with a wrong check digit');
    }
  });

  test('a license under two emails is a cluster; the same person twice under one email is not', () => {
    const found = licenseSignals(
      signalTable([
        ballot('a', { license: 'MD1', email: 'a@x.org' }),
        ballot('b', { license: 'MD1', email: 'b@x.org' }),
        ballot('c', { license: 'MD2', email: 'c@x.org' }),
        ballot('d', { license: 'MD2', email: 'c@x.org' }),
      ]),
    );
    expect(found.filter((c) => c.kind === 'license_repeat').map((c) => c.ballotIds)).toEqual([['a', 'b']]);
  });
});

describe('near-identical ballots', () => {
  test('ballots one entry apart join; a ballot two entries apart does not', () => {
    const entries = ['c-1', 'c-2', 'c-3', 'c-4'];
    const crowd = Array.from({ length: 100 }, (_, i) => ballot(`v${i}`, { votes: cardiology(`c-${100 + i}`) }));
    const found = nearIdentical(
      signalTable([
        ...crowd,
        ballot('same1', { votes: cardiology(...entries) }),
        ballot('same2', { votes: cardiology(...entries) }),
        ballot('plus', { votes: cardiology(...entries, 'c-5') }),
        ballot('swap', { votes: cardiology('c-1', 'c-2', 'c-3', 'c-9') }),
        ballot('far', { votes: cardiology('c-1', 'c-7', 'c-8', 'c-9') }),
        ballot('short', { votes: cardiology('c-1', 'c-2', 'c-3') }),
      ]),
      T,
    );
    expect(found.map((c) => c.ballotIds)).toEqual([['same1', 'same2', 'plus', 'swap']]);
    // On a short list, where every ballot names the same few, alike ballots are no template.
    const short = Array.from({ length: 20 }, (_, i) => ballot(`s${i}`, { votes: cardiology('c-1', 'c-2', 'c-3', 'c-4', i % 2 ? 'c-5' : 'c-6') }));
    expect(nearIdentical(signalTable(short), T)).toEqual([]);
    expect(found[0].evidence).toMatch(
      /^4 ballots with the same 4 entries give or take one \(2 exactly alike\), \d+ times what the names' popularity predicts$/,
    );
  });
});

describe('ties to the nominee list', () => {
  test('two little-known voters naming each other are flagged; a nominee named by most ballots is consensus', () => {
    const crowd = Array.from({ length: 200 }, (_, i) => ballot(`v${i}`, { votes: cardiology(`c-${100 + i}`, 'c-top') }));
    const found = reciprocalNominations(
      signalTable([
        ...crowd,
        ballot('a', { nomineeId: 'c-a', votes: cardiology('c-b') }),
        ballot('b', { nomineeId: 'c-b', votes: cardiology('c-a') }),
        ballot('t', { nomineeId: 'c-top', votes: cardiology('c-100') }),
        ballot('u', { nomineeId: 'c-100', votes: cardiology('c-top') }),
      ]),
      (id) => id,
    );
    expect(found.map((c) => c.ballotIds.sort())).toEqual([['a', 'b']]);
    expect(found[0].evidence).toBe('2 voters on the nominee list nominate each other: c-a and c-b');
  });

  test('a bloc of little-known names is flagged and merged into one set; the popular names together are not', () => {
    const crowd = Array.from({ length: 100 }, (_, i) => ballot(`v${i}`, { votes: cardiology('c-1', 'c-2', `c-${10 + i}`) }));
    const bloc = Array.from({ length: 5 }, (_, i) => ballot(`b${i}`, { votes: cardiology('x-1', 'x-2', 'x-3', 'x-4') }));
    const found = blocs(signalTable([...crowd, ...bloc]), T, (id) => id);
    expect(found).toHaveLength(1);
    expect(found[0].ballotIds).toEqual(['b0', 'b1', 'b2', 'b3', 'b4']);
    expect(found[0].evidence).toMatch(/^5 ballots name the same 4 nominees in Cardiology: x-1, x-2, x-3, x-4 \(\d+ times what their popularity predicts\)$/);
  });
});

describe('ballots held column by column', () => {
  const texts = [
    '',
    'a',
    'ab',
    'AB',
    '0f1e',
    '01a2fce5-1000-7000-8000-000000000000',
    '01A2FCE5-1000-7000-8000-000000000000',
    '01a2fce5-1000-7000-8000-00000000000',
    '\u0001x',
    '\u0002',
    '\u0000',
    'ü-über',
    '日本',
    '😀',
    '0123456789abcdef0123456789abcdef',
  ];

  test('texts come back as they were: hex digests and UUIDs kept as their bytes, every other text as UTF-8', () => {
    const column = new TextColumn(2);
    for (const text of texts) column.push(text);
    expect(texts.map((_, i) => column.text(i))).toEqual(texts);
    const interner = new Interner(2);
    const ids = [...texts, ...texts].map((text) => interner.id(text));
    expect(ids).toEqual([...texts.keys(), ...texts.keys()]);
    expect(texts.map((text) => interner.find(text))).toEqual([...texts.keys()]);
    expect(interner.find('never seen')).toBe(-1);
    expect(ids.map((id) => interner.text(id))).toEqual([...texts, ...texts]);
  });

  test('near-identical ballots and blocs are the same whether their index is built in one pass or in many', () => {
    const loose = { ...T, similarBallots: 2, similarLift: 1, similarMin: 2, blocMin: 2, blocSize: 2, blocLift: 1 };
    const table = signalTable([...honestBallots(400, 5), ...Object.values(plantedPatterns()).flat()]);
    const near = nearIdentical(table, loose);
    expect(near.length).toBeGreaterThan(1);
    expect(nearIdentical(table, loose, 37)).toEqual(near);
    const sets = blocs(table, loose, (id) => id);
    expect(sets.length).toBeGreaterThan(10);
    expect(blocs(table, loose, (id) => id, 3)).toEqual(sets);
  });

  test('the ballots of overlapping clusters are counted once each, from the table’s numbers as from their ids', () => {
    const loose = { ...T, similarBallots: 2, similarLift: 1, similarMin: 2, blocMin: 2, blocSize: 2, blocLift: 1 };
    const found = detectSignals(signalTable([...honestBallots(400, 5), ...Object.values(plantedPatterns()).flat()]), loose);
    const ids = found.flatMap((cluster) => cluster.ballotIds);
    const distinct = new Set(ids).size;
    expect(distinct).toBeLessThan(ids.length);
    expect(distinctBallots(found)).toBe(distinct);
    // Clusters given whole, as a report's test hands them over, are counted by their ids.
    const whole = found.map((cluster) => ({ ...cluster, ballotIds: cluster.ballotIds }));
    expect(distinctBallots(whole)).toBe(distinct);
    expect(distinctBallots([])).toBe(0);
  });
});

describe('generated surveys', () => {
  test('an honest survey raises no cluster', () => {
    expect(detectSignals(signalTable(honestBallots(600)))).toEqual([]);
  });

  test('a large, busy honest survey raises no burst, template or bloc by chance: a busy browser or a popular nominee keeps its own pace', () => {
    // 8,000 ballots in one day: the commonest browser sends a dozen in some ten minutes, at its ordinary pace.
    const found = detectSignals(signalTable(honestBallots(8000, 11, 1))).filter((cluster) => cluster.kind !== 'reciprocal');
    expect(found.map((c) => c.evidence)).toEqual([]);
  });

  test.each(Object.keys(plantedPatterns()))('a planted %s is found among honest ballots, exactly its ballots', (kind) => {
    const patterns = plantedPatterns();
    const all = [...honestBallots(600), ...Object.values(patterns).flat()].sort((a, b) => a.at - b.at);
    const found = detectSignals(signalTable(all)).filter((cluster) => cluster.kind === kind);
    expect(found.map((cluster) => cluster.ballotIds.sort())).toContainEqual(patterns[kind].map((b) => b.id).sort());
  });

  test('every kind has a planted pattern, and clusters come strongest first', () => {
    expect(Object.keys(plantedPatterns()).sort()).toEqual([...SIGNAL_KINDS].sort());
    const all = [...honestBallots(300), ...Object.values(plantedPatterns()).flat()];
    const scores = detectSignals(signalTable(all)).map((c) => c.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect([strength(3), strength(1.5), strength(1)]).toEqual(['high', 'medium', 'low']);
  });
});

describe("what a look records for the console's page", () => {
  test("every kind counted, in the detectors' order: its clusters, and the ballots they name, each once however many name it", () => {
    const all = [...honestBallots(300), ...Object.values(plantedPatterns()).flat()];
    const clusters = detectSignals(signalTable(all));
    const counts = countSignals(clusters);
    expect(counts.kinds.map((kind) => kind.kind)).toEqual([...SIGNAL_KINDS]);
    const ids = (of: typeof clusters) => new Set(of.flatMap((cluster) => cluster.ballotIds)).size;
    for (const kind of counts.kinds) {
      const of = clusters.filter((cluster) => cluster.kind === kind.kind);
      expect([kind.kind, kind.clusters, kind.ballotsNamed]).toEqual([kind.kind, of.length, ids(of)]);
      expect(kind.clusters).toBeGreaterThan(0);
    }
    expect(counts.clusters).toBe(clusters.length);
    expect(counts.ballotsNamed).toBe(ids(clusters));
    // A ballot two kinds name is one ballot of the whole, one of each kind.
    expect(counts.ballotsNamed).toBeLessThanOrEqual(counts.kinds.reduce((sum, kind) => sum + kind.ballotsNamed, 0));
  });

  test('a look that finds nothing counts every kind at nought', () => {
    expect(countSignals([])).toEqual({ clusters: 0, ballotsNamed: 0, kinds: SIGNAL_KINDS.map((kind) => ({ kind, clusters: 0, ballotsNamed: 0 })) });
  });
});

describe('client hashes', () => {
  test('per survey salts; an IPv6 address counts by its /64; never the address itself', () => {
    const salt = surveySalt('s'.repeat(32), 'survey-a');
    const one = clientHashes(salt, '2001:db8:1:2:aaaa::1', 'Mozilla/5.0');
    expect(clientHashes(salt, '2001:db8:1:2:bbbb::9', 'Mozilla/5.0')).toEqual(one);
    expect(clientHashes(salt, '2001:db8:1:3::1', 'Mozilla/5.0').clientHash).not.toBe(one.clientHash);
    expect(clientHashes(surveySalt('s'.repeat(32), 'survey-b'), '2001:db8:1:2:aaaa::1', 'Mozilla/5.0').clientHash).not.toBe(one.clientHash);
    expect(one.clientHash).toMatch(/^[0-9a-f]{32}$/);
    expect(addressKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('2001:DB8::1')).toBe('2001:db8:0:0::/64');
  });

  test('the secret: SIGNALS_SECRET, else a key file created once with permissions 0600; without either, ballots go in unhashed', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'peervote-signals-'));
    try {
      const config = readServerConfig({ DATA_DIR: dir });
      const secret = signalsSecret(config);
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
      expect(statSync(path.join(dir, 'signals.key')).mode & 0o777).toBe(0o600);
      expect(signalsSecret(config)).toBe(secret);
      expect(signalsSecret(readServerConfig({ DATA_DIR: dir, SIGNALS_SECRET: 'k'.repeat(40) }))).toBe('k'.repeat(40));
      expect(() => readServerConfig({ SIGNALS_SECRET: 'short' })).toThrow(
        'Environment variable SIGNALS_SECRET: expected a random secret of at least 32 characters',
      );
      const request = new Request('http://localhost/api/survey', { headers: { 'user-agent': 'UA' } });
      expect(requestHashes(request, '192.0.2.1', config, 'p')).toEqual(clientHashes(surveySalt(secret, 'p'), '192.0.2.1', 'UA'));
      writeFileSync(path.join(dir, 'a-file'), '');
      const unwritable = readServerConfig({ DATA_DIR: path.join(dir, 'a-file', 'data') });
      expect(requestHashes(request, '192.0.2.1', unwritable, 'p')).toEqual({});
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
