// Local nominee search latency: p50/p95/p99 of the engine over realistic queries, for 5,000 and
// 100,000 made-up nominees (or `--nominees N`), beside a naive linear scan of the same data as
// the baseline, and the process's peak resident memory with the list and its index built (taken
// before the scan's own copy of the names is made; sizes run smallest first, so each size's
// figure is its own).
//
// The budgets, at every size: p95 at most 5 ms, peak resident memory at most 500 MiB. The
// script ends with a line per budget missed and a non-zero exit, or one line saying all were met.
//
//   npm run bench:search [-- --queries 10000 --sizes 5000,100000 --baseline-queries 2000]
//   npm run bench:search -- --nominees 1000000 [--baseline-queries 200]
//
// Time is measured in process around one `search()` call: what the server spends on a query,
// without HTTP. Queries are what a voter's box holds when typing pauses: prefixes of surnames
// and first names, first name and part of the surname, full names, typos, no accents, "Dr.".
//
// `--results FILE` also writes what the engine answers to each query, to compare two versions of
// it: a line per query and size, plain and for a slot's specialty, with the count, a digest of
// every hit in order and the second page's ids. Run it on each version and compare the files:
//
//   npm run bench:search -- --sizes 100000 --results after.tsv
//   git checkout <commit> -- src/server/search && npm run bench:search -- --sizes 100000 --results before.tsv
//   git checkout HEAD -- src/server/search && cmp before.tsv after.tsv
import { createHash } from 'node:crypto';
import { appendFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { generateNominees, seededRandom } from '../../bin/lib/nominee-generator.ts';
import { createNomineeEngine, MIN_TYPO_WORD, withinOneEdit } from '../../src/server/search/nominee-engine.ts';
import { DETAIL_COLUMNS, type Nominee } from '../../src/survey/nominees/nominee.struct.ts';
import { HITS_PER_PAGE } from '../../src/survey/nominees/nominee-search.ts';
import { foldText, nomineeTerms, queryTerms } from '../../src/survey/nominees/nominee-text.ts';

const { values } = parseArgs({
  options: {
    queries: { type: 'string', default: '10000' },
    sizes: { type: 'string', default: '5000,100000' },
    nominees: { type: 'string' },
    'baseline-queries': { type: 'string', default: '10000' },
    seed: { type: 'string', default: '2027' },
    results: { type: 'string' },
  },
});
const QUERIES = Number(values.queries);
const BASELINE_QUERIES = Math.min(QUERIES, Number(values['baseline-queries']));
const SPECIALTIES = [
  'Family Medicine',
  'Internal Medicine',
  'Pediatrics',
  'Cardiology',
  'Pulmonology',
  'General Surgery',
  'Orthopedic Surgery',
  'Neurosurgery',
];

/** One typo in a word: a letter replaced, dropped or doubled. */
function withTypo(word: string, random: () => number): string {
  const at = 1 + Math.floor(random() * (word.length - 2));
  const kind = random();
  if (kind < 0.4) return word.slice(0, at) + String.fromCharCode(97 + Math.floor(random() * 26)) + word.slice(at + 1);
  if (kind < 0.7) return word.slice(0, at) + word.slice(at + 1);
  return word.slice(0, at) + word[at] + word.slice(at);
}

/** Realistic queries for a list: mostly names as a voter types them. */
export function realisticQueries(nominees: readonly Nominee[], count: number, seed: number): string[] {
  const random = seededRandom(seed);
  const queries: string[] = [];
  while (queries.length < count) {
    const { name } = nominees[Math.floor(random() * nominees.length)];
    const words = name.split(' ').filter((word) => !/^\w\.$/.test(word));
    const first = words[0];
    const last = words.at(-1)!;
    const prefix = (word: string, min = 1) => word.slice(0, min + Math.floor(random() * (word.length - min + 1)));
    const roll = random();
    let query: string;
    if (roll < 0.3) query = prefix(last);
    else if (roll < 0.55) query = `${first} ${prefix(last)}`;
    else if (roll < 0.7) query = name;
    else if (roll < 0.8) query = prefix(first, 2);
    else if (roll < 0.9) {
      const parts = name.split(/[\s-]+/).filter((part) => part.length > MIN_TYPO_WORD);
      if (!parts.length) continue;
      const part = parts[Math.floor(random() * parts.length)];
      query = name.replace(part, withTypo(part, random));
    } else query = random() < 0.5 ? foldText(name) : `Dr. ${last}`;
    queries.push(random() < 0.5 ? query.toLowerCase() : query);
  }
  return queries;
}

/**
 * The baseline: every nominee checked in turn against every query word, by the engine's rules
 * (a name word's prefix, one typo in a name word of five letters or more, or a detail word's
 * prefix), then ranked by how the name matched.
 */
function naiveScan(nominees: readonly Nominee[]) {
  const names = nominees.map((n) => nomineeTerms(n.name));
  const details = nominees.map((n) => DETAIL_COLUMNS.flatMap((c) => nomineeTerms(n[c] ?? '')));
  return (query: string) => {
    const terms = queryTerms(query);
    const tiers: number[][] = [[], [], [], []];
    outer: for (let i = 0; i < names.length; i++) {
      let worst = 0;
      for (const term of terms) {
        const own = names[i];
        if (own.includes(term)) continue;
        if (own.some((word) => word.startsWith(term))) worst = Math.max(worst, 1);
        else if (term.length >= MIN_TYPO_WORD && own.some((word) => withinOneEdit(word, term))) worst = Math.max(worst, 2);
        else if (details[i].some((word) => word.startsWith(term))) worst = Math.max(worst, 1);
        else continue outer;
      }
      tiers[worst].push(i);
    }
    const ranked = tiers.flat();
    return { hits: ranked.slice(0, HITS_PER_PAGE).map((i) => nominees[i]), nbHits: ranked.length };
  };
}

function percentiles(samples: number[]): { p50: number; p95: number; p99: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  return { p50: at(50), p95: at(95), p99: at(99), max: sorted.at(-1)! };
}

/** Processor time of this thread (user and system), in milliseconds: what a query cost however busy the machine. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

function time(run: (query: string) => unknown, queries: string[], cpu?: number[]): number[] {
  for (const query of queries.slice(0, 200)) run(query); // warm up the JIT
  return queries.map((query) => {
    const cpuAtStart = cpu ? cpuMs() : 0;
    const start = process.hrtime.bigint();
    run(query);
    const wall = Number(process.hrtime.bigint() - start) / 1e6;
    cpu?.push(cpuMs() - cpuAtStart);
    return wall;
  });
}

/** What the engine answers to each query, as lines for `--results`: plain and for a slot, every hit in order digested. */
function resultLines(engine: ReturnType<typeof createNomineeEngine>, size: number, queries: string[]): string {
  return queries
    .flatMap((query, k) =>
      [undefined, SPECIALTIES[k % SPECIALTIES.length]].map((preferSpecialty) => {
        const all = engine.search(query, { hitsPerPage: size, preferSpecialty });
        const digest = createHash('sha1').update(JSON.stringify(all.hits)).digest('hex');
        const second = engine.search(query, { page: 1, preferSpecialty }).hits.map((hit) => hit.id);
        return `${size}\t${JSON.stringify(query)}\t${preferSpecialty ?? ''}\t${all.nbHits}\t${digest}\t${second.join(',')}\n`;
      }),
    )
    .join('');
}

/** p95 of a search, in milliseconds. */
const P95_BUDGET_MS = 5;
/** Peak resident memory of the process with the list and its index, in MiB. */
const RSS_BUDGET_MIB = 500;

function main(): void {
  const missed: string[] = [];
  const ms = (value: number) => `${value.toFixed(3).padStart(9)} ms`;
  console.log(`Nominee search latency, ${QUERIES} realistic queries per size (baseline: first ${BASELINE_QUERIES}); Node ${process.version}\n`);
  const sizes = (values.nominees ?? values.sizes).split(',').map(Number);
  if (values.results) writeFileSync(values.results, '');
  for (const size of sizes.sort((a, b) => a - b)) {
    const nominees = generateNominees({ count: size, seed: Number(values.seed), specialties: SPECIALTIES, anchors: true });
    const queries = realisticQueries(nominees, QUERIES, Number(values.seed) + size);
    const built = performance.now();
    const engine = createNomineeEngine(nominees);
    engine.search('a'); // builds the short-prefix table, as the first short query would
    const buildMs = performance.now() - built;
    const heap = process.memoryUsage().heapUsed / 2 ** 20;
    const engineCpu: number[] = [];
    const engineTimes = percentiles(time((q) => engine.search(q), queries, engineCpu));
    const cpuTimes = percentiles(engineCpu);
    const rssMiB = process.resourceUsage().maxRSS / 1024;
    const scan = naiveScan(nominees);
    const scanTimes = percentiles(time(scan, queries.slice(0, BASELINE_QUERIES)));
    const engineOnBaseline = percentiles(time((q) => engine.search(q), queries.slice(0, BASELINE_QUERIES)));
    const found = queries.filter((q) => engine.search(q).nbHits > 0).length;
    console.log(
      `${size.toLocaleString('en')} nominees: index built in ${buildMs.toFixed(0)} ms, heap ${heap.toFixed(0)} MiB, ${((found / QUERIES) * 100).toFixed(1)}% of queries found someone`,
    );
    console.log(`  ${'percentile'.padEnd(10)} ${'engine'.padStart(12)} ${'naive scan'.padStart(12)} ${'scan/engine'.padStart(12)}`);
    for (const key of ['p50', 'p95', 'p99', 'max'] as const) {
      const ratio = scanTimes[key] / engineOnBaseline[key];
      console.log(`  ${key.padEnd(10)} ${ms(engineTimes[key])} ${ms(scanTimes[key])} ${`${ratio.toFixed(1)}×`.padStart(12)}`);
    }
    console.log(
      `  engine processor time (this thread, microsecond clock): p50 ${cpuTimes.p50.toFixed(3)} ms, p95 ${cpuTimes.p95.toFixed(3)} ms, p99 ${cpuTimes.p99.toFixed(3)} ms; load average ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')} on ${availableParallelism()} cores`,
    );
    const fast = engineTimes.p95 <= P95_BUDGET_MS;
    const small = rssMiB <= RSS_BUDGET_MIB;
    console.log(`  p95 ${engineTimes.p95.toFixed(3)} ms ${fast ? 'within' : 'OVER'} its ${P95_BUDGET_MS} ms budget`);
    console.log(`  peak RSS ${rssMiB.toFixed(0)} MiB ${small ? 'within' : 'OVER'} its ${RSS_BUDGET_MIB} MiB budget\n`);
    if (values.results) appendFileSync(values.results, resultLines(engine, size, queries));
    if (!fast) missed.push(`${size.toLocaleString('en')} nominees: p95 ${engineTimes.p95.toFixed(3)} ms, over ${P95_BUDGET_MS} ms`);
    if (!small) missed.push(`${size.toLocaleString('en')} nominees: peak RSS ${rssMiB.toFixed(0)} MiB, over ${RSS_BUDGET_MIB} MiB`);
  }
  if (missed.length) {
    console.log(`OVER BUDGET:\n${missed.join('\n')}`);
    process.exitCode = 1;
  } else console.log(`within budget: p95 <= ${P95_BUDGET_MS} ms and peak RSS <= ${RSS_BUDGET_MIB} MiB at every size`);
}

if (import.meta.main) main();
